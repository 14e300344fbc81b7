// Child process of payment-races.test.ts: one app on a shared SQLite file, sending a burst of fake-provider
// returns and status reads for one payment while another process does the same. Prints one JSON line per response.
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { SQLite } from '../../db/sqlite-driver'
import { MemorySms } from '../../../test/memory-sms'
import { buildApp } from '../../app'
import { createTokenSigner } from '../../auth/tokens'
import { loadConfig } from '../../config'
import { fromSqlite } from '../../db/database'
import { FakeClock } from '../../lib/clock'

export interface PaymentRaceInput {
  file: string
  dataDir: string
  secret: string
  now: number
  user: { id: number; username: string }
  paymentId: number
  ref: string
  operations: number
}

const input = JSON.parse(process.argv[2]!) as PaymentRaceInput
const config = loadConfig(
  {
    NODE_ENV: 'test',
    JWT_SECRET: input.secret,
    LOG_LEVEL: 'silent',
    DATA_DIR: input.dataDir,
    PAYMENT_PROVIDERS: 'fake',
  },
  { persistSecret: false },
)
const database = fromSqlite(new SQLite(input.file))
const clock = new FakeClock(input.now)
const tokens = createTokenSigner({ secret: config.jwtSecret, accessTtl: 3600, refreshTtl: 3600, clock })
const app = await buildApp({ config, database, clock, sms: new MemorySms(), tokens }, { logger: false })
await app.ready()
const headers = { authorization: `Bearer ${await tokens.signAccess({ ...input.user, is_admin: false })}` }

async function operation(i: number) {
  const response =
    i % 2 === 0
      ? await app.inject({ method: 'GET', url: `/api/payments/fake/return/?ref=${input.ref}` })
      : await app.inject({ method: 'GET', url: `/api/payments/${input.paymentId}/`, headers })
  return { status: response.statusCode, location: response.headers.location ?? null }
}

process.stdout.write('ready\n')
await once(createInterface({ input: process.stdin }), 'line')
const lines = await Promise.all(Array.from({ length: input.operations }, (_, i) => operation(i)))
for (const line of lines) process.stdout.write(`${JSON.stringify(line)}\n`)
await app.close()
await database.destroy()
process.exit(0)
