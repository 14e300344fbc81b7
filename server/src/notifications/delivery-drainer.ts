import { randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { AppContext } from '../context'
import {
  claimDueDeliveries,
  clearTimeouts,
  countTimeout,
  deleteSubscriptionById,
  markDelivered,
  markFailed,
  phoneNumbersByUserIds,
  postponeSubscription,
  pruneFinished,
  scheduleRetry,
  subscriptionsByIds,
  type DeliveryRow,
} from './deliveries.repository'
import { createPushSender, type PushOutcome, type PushSender } from './push-sender'

export const SEND_SLOTS = 8
/** A send not answered after this long gives its slot back (issue 54): hanging endpoints cannot hold every slot. */
export const SLOW_AFTER_MS = 1_000
export const SLOW_SENDS = 64
/** Tries before a row is given up: the first send and four retries, over about an hour and a quarter. */
export const MAX_ATTEMPTS = 5
export const RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000]
/** Pushes in a row to one subscription that time out before it is dropped (docs/decisions/042). */
export const PUSH_TIMEOUTS_BEFORE_DROP = 3
const HOUR = 3_600_000
const DAY = 24 * HOUR

type Outcome = PushOutcome

export interface DeliveryDrainer {
  start(): void
  stop(): Promise<void>
  drainOnce(): Promise<number>
  drainTick(): Promise<number>
}

// Each row claimed by one process (docs/decisions/035); a hanging push service holds one slot (docs/decisions/042).
export function createDeliveryDrainer(
  { database, clock, config, sms }: Pick<AppContext, 'database' | 'clock' | 'config' | 'sms'>,
  log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'info'>,
  push: PushSender = createPushSender(config.push),
): DeliveryDrainer {
  const worker = `${process.pid}-${randomBytes(6).toString('hex')}`
  // Longer than one send can take (bounded by the timeouts), so a live process never loses a claim it still works on.
  const claimMs = Math.max(config.push.timeoutMs, config.sms.timeoutMs) + 60_000
  let timer: NodeJS.Timeout | undefined
  let stopped = true
  let prunedAt = 0
  const inFlight = new Set<Promise<void>>()
  // Those in flight holding one of SEND_SLOTS, then those past SLOW_AFTER_MS waiting for room among SLOW_SENDS.
  const holdingSlot = new Set<Promise<void>>()
  const overdue: Promise<void>[] = []
  // Claims one at a time per process, so two never count the same free slots.
  let claiming: Promise<unknown> = Promise.resolve()
  // The rate bound (decision 070): rows claimed since the tick began; a freed slot is refilled only within it.
  let tickBegan = -Infinity
  let claimedThisTick = 0
  const budgetLeft = () => config.deliveryMaxPerTick - claimedThisTick
  function beginTickIfDue(force = false) {
    const now = performance.now()
    if (force || now - tickBegan >= config.deliveryIntervalMs) {
      tickBegan = now
      claimedThisTick = 0
    }
  }

  function claim(slots: () => number): Promise<Promise<void>[]> {
    const next = claiming.then(async () => {
      const now = clock.now()
      if (now - prunedAt > HOUR) {
        prunedAt = now
        await database.transaction((trx) => pruneFinished(trx, { doneBefore: now - DAY, failedBefore: now - 30 * DAY }))
      }
      const limit = Math.min(slots(), budgetLeft())
      if (limit <= 0) return []
      const rows = await database.transaction((trx) =>
        claimDueDeliveries(trx, database.dialect, { worker, now, until: now + claimMs, limit }),
      )
      claimedThisTick += rows.length
      return rows.map(launch)
    })
    claiming = next.catch(() => undefined)
    return next
  }

  function launch(row: DeliveryRow): Promise<void> {
    const sending = deliver(row)
      .catch((error: unknown) => log.error({ err: error, delivery: row.id }, 'deliveries: a send failed to settle'))
      .finally(() => {
        clearTimeout(slowTimer)
        inFlight.delete(sending)
        holdingSlot.delete(sending)
        const waiting = overdue.indexOf(sending)
        if (waiting >= 0) overdue.splice(waiting, 1)
        releaseOverdue()
        if (!stopped) schedule(0)
      })
    inFlight.add(sending)
    holdingSlot.add(sending)
    const slowTimer = setTimeout(() => {
      overdue.push(sending)
      releaseOverdue()
    }, SLOW_AFTER_MS)
    slowTimer.unref()
    return sending
  }

  function releaseOverdue() {
    let released = false
    while (overdue.length > 0 && inFlight.size - holdingSlot.size < SLOW_SENDS) {
      released = holdingSlot.delete(overdue.shift()!) || released
    }
    if (released && !stopped) schedule(0)
  }

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

  async function drainOnce(): Promise<number> {
    let claimed = 0
    try {
      for (;;) {
        claimedThisTick = 0
        const sends = await claim(() => SEND_SLOTS)
        if (sends.length === 0) return claimed
        claimed += sends.length
        await Promise.all(sends)
      }
    } catch (error) {
      log.error({ err: error }, 'deliveries: a drain failed; its rows are sent again once their claim expires')
      return claimed
    }
  }

  async function drainTick(): Promise<number> {
    beginTickIfDue(true)
    let claimed = 0
    try {
      for (;;) {
        const sends = await claim(() => SEND_SLOTS)
        if (sends.length === 0) return claimed
        claimed += sends.length
        await Promise.all(sends)
      }
    } catch (error) {
      log.error({ err: error }, 'deliveries: a tick failed; its rows are sent again once their claim expires')
      return claimed
    }
  }

  async function fill() {
    beginTickIfDue()
    try {
      await claim(() => SEND_SLOTS - holdingSlot.size)
    } catch (error) {
      log.error({ err: error }, 'deliveries: a claim failed; its rows are sent again once their claim expires')
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

  function schedule(delay: number) {
    if (stopped) return
    clearTimeout(timer)
    timer = setTimeout(async () => {
      timer = undefined
      await fill()
      if (timer === undefined) schedule(config.deliveryIntervalMs)
    }, delay)
    // The loop alone never keeps a process alive (a CLI command, a test that forgot to close).
    timer.unref()
  }

  return {
    start() {
      if (!stopped || config.deliveryIntervalMs === 0) return
      stopped = false
      schedule(0)
    },
    async stop() {
      stopped = true
      clearTimeout(timer)
      await claiming
      await Promise.all([...inFlight])
    },
    drainOnce,
    drainTick,
  }
}

// null without a TTL, or with TTL 0 (a push only for a browser online now, sent as such however late).
function remainingTtlSeconds(row: DeliveryRow, now: number): number | null {
  if (row.ttl_seconds === null || row.ttl_seconds === 0) return null
  return Math.floor((row.created_at + row.ttl_seconds * 1000 - now) / 1000)
}
