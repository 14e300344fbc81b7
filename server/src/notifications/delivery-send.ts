import type { FastifyBaseLogger } from 'fastify'
import type { AppContext } from '../context'
import {
  clearTimeouts,
  countTimeout,
  deleteSubscriptionById,
  markDelivered,
  markFailed,
  phoneNumbersByUserIds,
  postponeSubscription,
  scheduleRetry,
  subscriptionsByIds,
  type DeliveryRow,
} from './deliveries.repository'
import type { PushOutcome, PushSender } from './push-sender'

/** Tries before a row is given up: the first send and four retries, over about an hour and a quarter. */
export const MAX_ATTEMPTS = 5
export const RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000]
/** Pushes in a row to one subscription that time out before it is dropped (docs/decisions/042). */
export const PUSH_TIMEOUTS_BEFORE_DROP = 3

type Outcome = PushOutcome

/** Sends one claimed row and records what came of it: delivered, retried later, given up, or its subscription dropped. */
export function createDeliverySend(
  { database, clock, sms }: Pick<AppContext, 'database' | 'clock' | 'sms'>,
  log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'info'>,
  push: PushSender,
  worker: string,
) {
  async function deliver(row: DeliveryRow) {
    const outcome = await sendOne(row).catch((error: unknown): Outcome => ({
      kind: 'retry',
      error: (error as Error).message ?? String(error),
    }))
    if (outcome.kind === 'sent') {
      await database.transaction(async (trx) => {
        await markDelivered(trx, worker, [row.id], clock.now())
        if (row.subscription_id !== null) await clearTimeouts(trx, [row.subscription_id])
      })
    } else await settle(row, outcome)
  }

  async function sendOne(row: DeliveryRow): Promise<Outcome> {
    if (row.channel === 'push') {
      const [subscription] =
        row.subscription_id === null ? [] : await subscriptionsByIds(database.db, [row.subscription_id])
      if (!subscription) return { kind: 'failed', error: 'the subscription was removed' }
      const left = remainingTtlSeconds(row, clock.now())
      if (left !== null && left <= 0) return { kind: 'failed', error: 'expired before it could be sent' }
      return push.send(subscription, row.payload, left ?? 0)
    }
    const [phone] = await phoneNumbersByUserIds(database.db, [row.user_id])
    if (!phone) return { kind: 'failed', error: 'the learner has no phone number' }
    const left = remainingTtlSeconds(row, clock.now())
    if (left !== null && left <= 0) return { kind: 'failed', error: 'expired before it could be sent' }
    const { text, purpose } = JSON.parse(row.payload) as { text: string; purpose: string }
    try {
      await sms.send({ to: phone.phone_number, text, purpose })
      return { kind: 'sent' }
    } catch (error) {
      return { kind: 'retry', error: `SMS not sent: ${(error as Error).message}` }
    }
  }

  async function settle(row: DeliveryRow, outcome: Exclude<Outcome, { kind: 'sent' }>) {
    const now = clock.now()
    if (outcome.kind === 'gone') {
      log.info({ delivery: row.id, status: outcome.status }, 'deliveries: push subscription gone, removed')
      await database.transaction((trx) => deleteSubscriptionById(trx, row.subscription_id!))
      return
    }
    if (outcome.kind === 'retry' && outcome.timedOut && row.subscription_id !== null) {
      const subscriptionId = row.subscription_id
      const dropped = await database.transaction(async (trx) => {
        const timeouts = await countTimeout(trx, subscriptionId)
        if (timeouts < PUSH_TIMEOUTS_BEFORE_DROP) {
          // Its other pushes wait too: an endpoint that hangs is tried again only after a pause that grows.
          await postponeSubscription(trx, subscriptionId, { now, until: now + RETRY_DELAYS_MS[timeouts - 1]! })
          return false
        }
        await deleteSubscriptionById(trx, subscriptionId)
        return true
      })
      if (dropped) {
        log.warn({ delivery: row.id }, 'deliveries: push subscription dropped after repeated timeouts')
        return
      }
    }
    const tries = row.attempts + 1
    if (outcome.kind === 'failed' || tries >= MAX_ATTEMPTS) {
      log.warn({ delivery: row.id, channel: row.channel, tries, error: outcome.error }, 'deliveries: given up')
      await database.transaction((trx) => markFailed(trx, worker, row.id, { now, error: outcome.error }))
      return
    }
    const delay = Math.max(RETRY_DELAYS_MS[tries - 1] ?? RETRY_DELAYS_MS.at(-1)!, outcome.retryAfterMs ?? 0)
    await database.transaction((trx) =>
      scheduleRetry(trx, worker, row.id, { at: now + delay, error: outcome.error.slice(0, 1000) }),
    )
  }

  return deliver
}

// null without a TTL, or with TTL 0 (a push only for a browser online now, sent as such however late).
function remainingTtlSeconds(row: DeliveryRow, now: number): number | null {
  if (row.ttl_seconds === null || row.ttl_seconds === 0) return null
  return Math.floor((row.created_at + row.ttl_seconds * 1000 - now) / 1000)
}
