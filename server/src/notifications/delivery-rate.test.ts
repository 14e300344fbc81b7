import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { FakePushService, useFakePushService } from '../../test/fake-push-service'
import { requestsWithEmptyBodies } from '../../test/requests'
import { createTestDatabase, dropTestDatabase, testConfig, useTestApp } from '../../test/test-app'
import { fromPostgresPool } from '../db/database'
import { migrateToLatest } from '../db/migrate'
import { FakeClock } from '../lib/clock'
import type { UserRow } from '../db/schema'
import { createDeliveryDrainer } from './delivery-drainer'
import { notify, type NewNotification } from './notifications.service'

const silent = { error: () => {}, info: () => {}, warn: () => {} }

// Issue 60, decision 070: the queue is worked off at a bounded rate, each row sent once, a push past its TTL dropped.
describe.each(dialects)('the delivery queue’s rate bound on %s', (dialect) => {
  const t = useTestApp(dialect, { PUSH_ALLOW_INSECURE: 'true' })
  const as = requestsWithEmptyBodies(t)
  const pushService = useFakePushService()

  const reminder = (user: UserRow, ttlSeconds = 900): NewNotification => ({
    userId: user.id,
    kind: 'live_reminder',
    text: { en: 'Your live mock starts in 15 minutes.', ne: 'तपाईंको लाइभ मक १५ मिनेटमा सुरु हुन्छ।' },
    link: '/quiz/1',
    push: { ttlSeconds },
  })
  const learnersSubscribed = async (count: number) => {
    const learners = await Promise.all(Array.from({ length: count }, () => createUser(t.database)))
    for (const [n, learner] of learners.entries()) {
      const subscription = pushService.subscribe(`rate-${n}`)
      expect((await as(learner, 'POST', '/api/push/subscriptions/', subscription)).status).toBe(201)
    }
    return learners
  }
  const tell = (items: NewNotification[]) => t.database.transaction((trx) => notify(trx, items, t.clock.now()))

  it('sends at most the setting per tick per process, and each push once across ticks', async () => {
    const learners = await learnersSubscribed(11)
    await tell(learners.map((learner) => reminder(learner)))
    const [a, b] = [0, 1].map(() =>
      createDeliveryDrainer({ ...t, config: { ...t.config, deliveryMaxPerTick: 3 } }, silent),
    )
    const perTick: number[] = []
    for (let tick = 0; tick < 3; tick++) perTick.push(...(await Promise.all([a!.drainTick(), b!.drainTick()])))
    // Which process takes the last two is a race; the bound and the total are not.
    expect(perTick.slice(0, 2)).toEqual([3, 3])
    expect(perTick.every((count) => count <= 3)).toBe(true)
    expect(perTick.reduce((x, y) => x + y, 0)).toBe(11)
    expect(perTick.slice(4)).toEqual([0, 0])
    expect(pushService.requests.sort()).toEqual(learners.map((_, n) => `rate-${n}`).sort())
  })

  it('drops a push whose TTL ran out in the queue, without sending it', async () => {
    const [learner] = await learnersSubscribed(1)
    await tell([reminder(learner!, 60)])
    t.clock.advance(61_000)
    expect(await createDeliveryDrainer(t, silent).drainTick()).toBe(1)
    expect(pushService.requests).toEqual([])
    expect(await t.db.selectFrom('deliveries').selectAll().execute()).toMatchObject([
      { status: 'failed', last_error: 'expired before it could be sent' },
    ])
  })
})

// Two processes (each its own pool) working one queue on PostgreSQL, ticking at once: each row is sent once.
describe.runIf(process.env.TEST_DATABASE_URL)('the delivery queue from two processes on PostgreSQL', () => {
  let name: string
  let url: string
  const pushService = new FakePushService()
  beforeAll(async () => {
    ;({ name, url } = await createTestDatabase('quiz_rate'))
    await pushService.start()
  })
  afterAll(async () => {
    await pushService.stop()
    await dropTestDatabase(name)
  })

  it('sends each of 40 pushes once, at most 5 per tick per process', async () => {
    const databases = [0, 1].map(() => fromPostgresPool(new pg.Pool({ connectionString: url, max: 4 })))
    try {
      await migrateToLatest(databases[0]!)
      const clock = new FakeClock()
      const config = { ...testConfig({ PUSH_ALLOW_INSECURE: 'true' }), deliveryMaxPerTick: 5 }
      const db = databases[0]!.db
      const users = await db
        .insertInto('users')
        .values(
          Array.from({ length: 40 }, (_, n) => ({
            username: `rate${n}`,
            username_key: `rate${n}`,
            phone_number: `98${String(n).padStart(8, '0')}`,
            password_hash: 'x',
            created_at: 0,
          })),
        )
        .returning('id')
        .execute()
      for (const [n, user] of users.entries()) {
        const subscription = pushService.subscribe(`two-${n}`)
        await db
          .insertInto('push_subscriptions')
          .values({
            user_id: user.id,
            endpoint: subscription.endpoint,
            p256dh: subscription.keys.p256dh,
            auth: subscription.keys.auth,
            created_at: 0,
          })
          .execute()
      }
      await databases[0]!.transaction((trx) =>
        notify(
          trx,
          users.map((user) => ({
            userId: user.id,
            kind: 'live_results' as const,
            text: { en: 'Results are out.', ne: 'नतिजा आयो।' },
            link: '/quiz/1/leaderboard',
          })),
          clock.now(),
        ),
      )
      const drainers = databases.flatMap((database) =>
        [0, 1].map(() => createDeliveryDrainer({ database, clock, config, sms: undefined as never }, silent)),
      )
      let sent = 0
      for (let tick = 0; tick < 10 && sent < users.length; tick++) {
        const counts = await Promise.all(drainers.map((drainer) => drainer.drainTick()))
        expect(counts.every((count) => count <= 5)).toBe(true)
        sent += counts.reduce((x, y) => x + y, 0)
      }
      expect(sent).toBe(users.length)
      expect(pushService.requests.sort()).toEqual(users.map((_, n) => `two-${n}`).sort())
      const rows = await db.selectFrom('deliveries').select(['status', 'attempts']).execute()
      expect(rows.every((row) => row.status === 'done' && row.attempts === 1)).toBe(true)
    } finally {
      for (const database of databases) await database.destroy()
    }
  })
})
