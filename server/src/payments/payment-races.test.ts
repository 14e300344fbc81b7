import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SQLite } from '../db/sqlite-driver'
import { afterEach, describe, expect, it } from 'vitest'
import { MemorySms } from '../../test/memory-sms'
import { bearerFor, createUser, paidAccessUntil } from '../../test/factories'
import { runRaceWorkers } from '../../test/race-workers'
import { testConfig } from '../../test/test-app'
import { buildApp } from '../app'
import { createTokenSigner } from '../http/tokens'
import { fromSqlite } from '../db/database'
import { migrateToLatest } from '../db/migrate'
import { FakeClock } from '../lib/clock'
import type { PaymentRaceInput } from '../../test/payment-race-worker'

const DAY = 86_400_000

// Concurrent requests within one process (and on PostgreSQL) are covered in payments.routes.test.ts; one
// process runs SQLite transactions one at a time, so the cross-process race needs two processes on one file.
describe('completing a payment across two processes on one SQLite file', () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('grants paid access once when both processes verify the same payment at once', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'quiz-pay-race-'))
    const file = path.join(dir, 'quiz.db')
    const database = fromSqlite(new SQLite(file))
    const clock = new FakeClock()
    const config = testConfig({ PAYMENT_PROVIDERS: 'fake', DATA_DIR: dir })
    const tokens = createTokenSigner({ secret: config.jwtSecret, accessTtl: 3600, refreshTtl: 3600, clock })
    const app = await buildApp({ config, database, clock, sms: new MemorySms(), tokens }, { logger: false })
    try {
      await migrateToLatest(database)
      const admin = await createUser(database, { is_admin: 1 })
      const learner = await createUser(database)
      const plan = (
        await app.inject({
          method: 'POST',
          url: '/api/admin/plans/',
          headers: await bearerFor(tokens, admin),
          payload: { name: { en: 'Month' }, price_paisa: 50000, days: 30 },
        })
      ).json()
      const started = (
        await app.inject({
          method: 'POST',
          url: '/api/payments/',
          headers: await bearerFor(tokens, learner),
          payload: { plan_id: plan.id, provider: 'fake' },
        })
      ).json()
      const ref = started.redirect.url.split('ref=')[1]
      await app.inject({
        method: 'POST',
        url: '/api/payments/fake/checkout/',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `ref=${ref}&decision=pay`,
      })

      const input: PaymentRaceInput = {
        file,
        dataDir: dir,
        secret: config.jwtSecret,
        now: clock.now(),
        user: { id: learner.id, username: learner.username },
        paymentId: started.payment_id,
        ref,
        operations: 12,
      }
      const lines = (await runWorkers([input, input])).flat()
      expect(lines).toHaveLength(24)
      expect(lines.filter((l) => l.status !== 200 && l.status !== 303)).toEqual([])

      expect(await paidAccessUntil(database.db, learner.id)).toBe(clock.now() + 30 * DAY)
      const payment = await database.db
        .selectFrom('payments')
        .selectAll()
        .where('id', '=', started.payment_id)
        .executeTakeFirstOrThrow()
      expect(payment.status).toBe('completed')
    } finally {
      await app.close()
      await database.destroy()
    }
  }, 60_000)
})

const runWorkers = (inputs: PaymentRaceInput[]) =>
  runRaceWorkers<{ status: number; location: string | null }>(
    path.join(import.meta.dirname, '../../test/payment-race-worker.ts'),
    inputs,
  )
