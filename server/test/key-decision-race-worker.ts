// Child process of challenges/key-decision-races.test.ts: one app on a shared SQLite file sending key decisions on
// one question while another process does the same. Prints one JSON line per response.
import { raceWhenReleased, startRaceApp, type RaceAppInput } from './race-workers'

export interface KeyRaceInput extends RaceAppInput {
  questionId: number
  revisionId: number
  /** The right option of each decision this worker sends, in turn. */
  options: number[]
}

export interface KeyRaceLine {
  status: number
  body: unknown
}

const input = JSON.parse(process.argv[2]!) as KeyRaceInput
const race = await startRaceApp(input)

await raceWhenReleased(race, input.options.length, async (i) => {
  const response = await race.app.inject({
    method: 'POST',
    url: `/api/admin/questions/${input.questionId}/key/`,
    headers: race.headers,
    payload: {
      revision_id: input.revisionId,
      action: 'change',
      correct_option_ids: [input.options[i]],
      note: `Decision ${i}`,
      dry_run: false,
    },
  })
  const line: KeyRaceLine = { status: response.statusCode, body: response.json() }
  return line
})
