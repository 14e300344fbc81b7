// Child process of attempt-races.test.ts: one app on a shared SQLite file, hammering one learner's quiz through
// the whole HTTP stack while another process does the same. Prints one JSON line per response.
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { MemorySms } from '../../../test/memory-sms'
import { buildApp } from '../../app'
import { createTokenSigner } from '../../http/tokens'
import { loadConfig } from '../../config'
import { fromSqlite } from '../../db/database'
import { FakeClock } from '../../lib/clock'
import { SQLite } from '../../db/sqlite-driver'

export interface RaceWorkerInput {
  file: string
  dataDir: string
  secret: string
  now: number
  user: { id: number; username: string }
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
const config = loadConfig(
  { NODE_ENV: 'test', JWT_SECRET: input.secret, LOG_LEVEL: 'silent', DATA_DIR: input.dataDir },
  { persistSecret: false },
)
const database = fromSqlite(new SQLite(input.file))
const clock = new FakeClock(input.now)
const tokens = createTokenSigner({ secret: config.jwtSecret, accessTtl: 3600, refreshTtl: 3600, clock })
const app = await buildApp({ config, database, clock, sms: new MemorySms(), tokens }, { logger: false })
await app.ready()
const headers = { authorization: `Bearer ${await tokens.signAccess({ ...input.user, is_admin: false })}` }

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

process.stdout.write('ready\n')
// Both workers wait for the parent's "go", so their requests really overlap.
await once(createInterface({ input: process.stdin }), 'line')
const lines = (await Promise.all(Array.from({ length: input.operations }, (_, i) => operation(i)))).flat()
for (const line of lines) process.stdout.write(`${JSON.stringify(line)}\n`)
await app.close()
await database.destroy()
process.exit(0)
