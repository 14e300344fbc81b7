// Child process of attempt-races.test.ts: one app on a shared SQLite file, hammering one learner's quiz through
// the whole HTTP stack while another process does the same. Prints one JSON line per response.
import { raceWhenReleased, startRaceApp, type RaceAppInput } from './race-workers'

export interface RaceWorkerInput extends RaceAppInput {
  quizId: number
  questions: { id: number; options: number[] }[]
  operations: number
  seed: number
}

export interface RaceWorkerLine {
  op: 'start' | 'submit' | 'submit-attempt' | 'save' | 'list'
  status: number
  body: unknown
}

const input = JSON.parse(process.argv[2]!) as RaceWorkerInput
const race = await startRaceApp(input)
const { app, headers } = race

/** A different answer sheet per operation: the first `k` questions right, the rest wrong, so each scores differently. */
const sheet = (k: number) =>
  Object.fromEntries(input.questions.map((question, index) => [question.id, question.options[index < k ? 0 : 1]!]))

async function request(op: RaceWorkerLine['op'], method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) {
  const response = await app.inject({ method, url, headers, payload })
  const line: RaceWorkerLine = { op, status: response.statusCode, body: response.json() }
  return line
}

const base = `/api/quizzes/${input.quizId}`
async function operation(i: number): Promise<RaceWorkerLine[]> {
  const k = (i + input.seed) % (input.questions.length + 1)
  switch (i % 5) {
    case 0:
      return [await request('start', 'GET', `${base}/`)]
    case 1:
      return [await request('submit', 'POST', `${base}/submit/`, { answers: sheet(k) })]
    case 2: {
      // The web app's path: start (or resume), then submit naming the attempt.
      const started = await request('start', 'GET', `${base}/`)
      if (started.status !== 200) return [started]
      const attemptId = (started.body as { attempt: { id: number } }).attempt.id
      return [
        started,
        await request('submit-attempt', 'POST', `${base}/submit/`, { answers: sheet(k), attempt_id: attemptId }),
      ]
    }
    case 3: {
      const question = input.questions[i % input.questions.length]!
      return [await request('save', 'PUT', `${base}/answers/`, { answers: { [question.id]: question.options[k % 2] } })]
    }
    default:
      return [await request('list', 'GET', '/api/quizzes/')]
  }
}

// Both workers wait for the parent's "go", so their requests really overlap.
await raceWhenReleased(race, input.operations, operation)
