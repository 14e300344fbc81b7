import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { useFakePushService } from '../../test/fake-push-service'
import { requestsWithEmptyBodies } from '../../test/requests'
import { useTestApp } from '../../test/test-app'
import { buildApp } from '../app'
import type { UserRow } from '../db/schema'
import { createDeliveryDrainer, RETRY_DELAYS_MS, SEND_SLOTS } from './delivery-drainer'
import { notify, type NewNotification } from './notifications.service'

// Issue 54: the 8 send slots of a process could be held by 8 accounts whose push endpoints never answer.
describe.each(dialects)('push slots shared fairly on %s', (dialect) => {
  const t = useTestApp(dialect, { PUSH_ALLOW_INSECURE: 'true' })
  const as = requestsWithEmptyBodies(t)
  const pushService = useFakePushService()

  const subscribe = async (user: UserRow, name: string) => {
    expect((await as(user, 'POST', '/api/push/subscriptions/', pushService.subscribe(name))).status).toBe(201)
  }
  const tell = (items: NewNotification[]) => t.database.transaction((trx) => notify(trx, items, t.clock.now()))
  const scoreChanged = (user: UserRow): NewNotification => ({
    userId: user.id,
    kind: 'score_changed',
    text: { en: 'Your score changed.', ne: 'तपाईंको अंक बदलियो।' },
    link: '/results/7',
  })

  // Alone it takes 3 s; in whole runs on PostgreSQL (2026-11-29, twice) its first try ran past 100 s, which is not
  // understood yet: retried rather than failing the run, and the queue printed when it stalls.
  it(
    "sends other learners' pushes while as many accounts as there are slots have push services that hang",
    { timeout: 120_000, retry: 2 },
    async () => {
      const attackers = await Promise.all(Array.from({ length: SEND_SLOTS + 2 }, () => createUser(t.database)))
      for (const [n, attacker] of attackers.entries()) {
        await subscribe(attacker, `hang-${n}`)
        pushService.answer(`hang-${n}`, 'hang')
      }
      const victims = await Promise.all(Array.from({ length: 3 }, () => createUser(t.database)))
      for (const [n, victim] of victims.entries()) await subscribe(victim, `victim-${n}`)
      // The attackers' pushes are queued first, and hang far longer than this test runs: the victims' pushes can only
      // arrive if the hanging sends give their slots back (a timing-free proof, whatever the machine's load).
      await tell(attackers.map(scoreChanged))
      await tell(victims.map(scoreChanged))
      const hangsForever = { ...t.config, push: { ...t.config.push, timeoutMs: 10 * 60_000 } }
      const app = await buildApp({ ...t, config: { ...hangsForever, deliveryIntervalMs: 20 } }, { logger: false })
      await app.ready()
      try {
        await expect
          .poll(() => pushService.received.filter((push) => push.name.startsWith('victim-')).length, {
            // About 10 s on a busy machine here; over 30 in one loaded CI run, over 50 in two runs at load average 8.
            timeout: 100_000,
            interval: 10,
          })
          .toBe(victims.length)
          .catch(async (error: unknown) => {
            // What the queue held when the victims' pushes did not come: for the cause of the rare stall above.
            const rows = await t.db
              .selectFrom('deliveries')
              .select(['id', 'user_id', 'status', 'attempts', 'next_attempt_at', 'claimed_by', 'claimed_until'])
              .execute()
            console.error(
              'push fairness stalled',
              JSON.stringify({
                now: t.clock.now(),
                requests: pushService.requests,
                received: pushService.received.map((push) => push.name),
                refused: pushService.refused,
                rows,
              }),
            )
            throw error
          })
        expect(pushService.received.filter((push) => push.name.startsWith('hang-'))).toEqual([])
      } finally {
        // Answered first, so that closing does not wait for the hanging pushes.
        pushService.release()
        await app.close()
      }
    },
  )

  it('holds back the other pushes of a subscription whose push service timed out, for a while', async () => {
    const learner = await createUser(t.database)
    await subscribe(learner, 'slow')
    pushService.answer('slow', 'hang')
    for (let n = 0; n < 3; n++) await tell([scoreChanged(learner)])
    const shortTimeout = { ...t.config, push: { ...t.config.push, timeoutMs: 1000 } }
    const drain = () => createDeliveryDrainer({ ...t, config: shortTimeout }, t.app.log).drainOnce()
    try {
      await drain()
      // One try, not one per queued push.
      expect(pushService.requests).toEqual(['slow'])
      t.clock.advance(RETRY_DELAYS_MS[0]! - 1)
      await drain()
      expect(pushService.requests).toHaveLength(1)
      t.clock.advance(1)
      await drain()
      expect(pushService.received.map((push) => push.name)).toEqual(['slow', 'slow', 'slow'])
    } finally {
      pushService.release()
    }
  })
})
