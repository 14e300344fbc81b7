// Child process of live/mock-ends.test.ts: one app on a shared SQLite file running its mock-end pass while another
// process runs its own. Prints how many mocks this process ended.
import { raceWhenReleased, startRaceApp, type RaceAppInput } from './race-workers'

export interface MockEndRaceLine {
  ended: number
}

const input = JSON.parse(process.argv[2]!) as RaceAppInput
const race = await startRaceApp(input)

await raceWhenReleased(race, 1, async () => {
  const line: MockEndRaceLine = { ended: await race.services.jobs.mockEnds.endDue() }
  return line
})
