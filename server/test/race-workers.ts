// Races across processes on one SQLite file (DESIGN.md: one Node process runs SQLite transactions one at a time, so
// a race there needs two). The parent starts the workers, waits until each has its app ready, then says "go" to all
// at once; each worker prints one JSON line per response and exits.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { fromSqlite } from '../src/db/database'
import { SQLite } from '../src/db/sqlite-driver'
import { createTokenSigner } from '../src/http/tokens'
import { FakeClock } from '../src/lib/clock'
import type { Services } from '../src/services'
import { MemorySms } from './memory-sms'

/** What every worker needs to open the shared file as one learner. */
export interface RaceAppInput {
  file: string
  dataDir: string
  secret: string
  now: number
  user: { id: number; username: string }
}

/** Parent side: one worker process per input, released together; resolves with each worker's lines. */
export async function runRaceWorkers<Line>(workerPath: string, inputs: object[]): Promise<Line[][]> {
  const workers = inputs.map((input) => {
    const child = spawn(process.execPath, ['--import', 'tsx', workerPath, JSON.stringify(input)], {
      cwd: path.join(import.meta.dirname, '..'),
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    const lines: string[] = []
    const ready = new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (line === 'ready') resolve()
        else lines.push(line)
      })
      child.once('exit', (code) => reject(new Error(`worker exited with ${code} before it was ready`)))
    })
    const done = new Promise<Line[]>((resolve, reject) => {
      child.once('exit', (code) => {
        if (code === 0) resolve(lines.map((line) => JSON.parse(line) as Line))
        else reject(new Error(`worker exited with ${code}`))
      })
    })
    return { child, ready, done }
  })
  await Promise.all(workers.map((worker) => worker.ready))
  for (const { child } of workers) child.stdin!.end('go\n')
  return Promise.all(workers.map((worker) => worker.done))
}

/** Worker side: the whole app on the shared file, and the learner's bearer header. */
export async function startRaceApp(input: RaceAppInput, env: Record<string, string> = {}) {
  const config = loadConfig(
    { NODE_ENV: 'test', JWT_SECRET: input.secret, LOG_LEVEL: 'silent', DATA_DIR: input.dataDir, ...env },
    { persistSecret: false },
  )
  const database = fromSqlite(new SQLite(input.file))
  const clock = new FakeClock(input.now)
  const tokens = createTokenSigner({ secret: config.jwtSecret, accessTtl: 3600, refreshTtl: 3600, clock })
  let services!: Services
  const app = await buildApp(
    { config, database, clock, sms: new MemorySms(), tokens },
    {
      logger: false,
      services: (built) => {
        services = built
        return {}
      },
    },
  )
  await app.ready()
  const headers = { authorization: `Bearer ${await tokens.signAccess({ ...input.user, is_admin: false })}` }
  return { app, database, headers, services }
}

/** Worker side: says "ready", waits for "go", runs the operations together, prints their lines and exits. */
export async function raceWhenReleased(
  { app, database }: Awaited<ReturnType<typeof startRaceApp>>,
  count: number,
  operation: (i: number) => Promise<unknown>,
): Promise<never> {
  process.stdout.write('ready\n')
  await once(createInterface({ input: process.stdin }), 'line')
  const lines = (await Promise.all(Array.from({ length: count }, (_, i) => operation(i)))).flat()
  for (const line of lines) process.stdout.write(`${JSON.stringify(line)}\n`)
  await app.close()
  await database.destroy()
  process.exit(0)
}
