import { randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { AppContext } from '../context'
import {
  claimDueDeliveries,
  deleteSubscriptionById,
  markDelivered,
  markFailed,
  phoneNumbersByUserIds,
  pruneFinished,
  scheduleRetry,
  subscriptionsByIds,
  type DeliveryRow,
} from './deliveries.repository'
import { createPushSender, type PushOutcome, type PushSender } from './push-sender'

/** Rows one claim takes: small, so one process never holds many that others could send meanwhile. */
export const CLAIM_BATCH = 20
/** Sends in flight at once per process: enough to hide a push service's latency, too few to crowd out requests. */
export const SEND_CONCURRENCY = 4
/** Tries before a row is given up: the first send and four retries, over about an hour and a quarter. */
export const MAX_ATTEMPTS = 5
/** Wait before retry n (after the nth failed try). */
export const RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000]
const HOUR = 3_600_000
const DAY = 24 * HOUR

type Outcome = PushOutcome

export interface DeliveryDrainer {
  /** Starts looking for due rows every `config.deliveryIntervalMs` (no-op when that is 0). */
  start(): void
  /** Stops looking and waits for the sends in flight (each bounded by its timeout). */
  stop(): Promise<void>
  /** Claims and sends one batch of due rows; resolves to how many it claimed. Never throws. */
  drainOnce(): Promise<number>
}

/**
 * Sends what notify() queued, after the transactions that queued it committed (docs/decisions/035). Any number of
 * processes may run one on the same database: each row is claimed by one of them (deliveries.repository.ts).
 * Failures are retried with growing delays, then given up; nothing here ever throws into a request, and the sends
 * run on this process's event loop between requests, a few at a time.
 */
export function createDeliveryDrainer(
  { database, clock, config, sms }: Pick<AppContext, 'database' | 'clock' | 'config' | 'sms'>,
  log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'info'>,
  push: PushSender = createPushSender(config.push),
): DeliveryDrainer {
  const worker = `${process.pid}-${randomBytes(6).toString('hex')}`
  // Longer than a batch can take (CLAIM_BATCH / SEND_CONCURRENCY sends, each bounded by the timeouts), so a live
  // process never loses a claim it is still working on.
  const claimMs = Math.max(config.push.timeoutMs, config.sms.timeoutMs) * (CLAIM_BATCH / SEND_CONCURRENCY + 1) + 60_000
  let timer: NodeJS.Timeout | undefined
  let stopped = true
  let running: Promise<number> | undefined
  let prunedAt = 0

  async function drainOnce(): Promise<number> {
    // One batch at a time per process: a second call waits for the first and then runs its own.
    while (running) await running.catch(() => 0)
    running = drain().catch((error: unknown) => {
      log.error({ err: error }, 'deliveries: a drain failed; its rows are sent again once their claim expires')
      return 0
    })
    try {
      return await running
    } finally {
      running = undefined
    }
  }

  async function drain(): Promise<number> {
    const now = clock.now()
    if (now - prunedAt > HOUR) {
      prunedAt = now
      await database.transaction((trx) => pruneFinished(trx, { doneBefore: now - DAY, failedBefore: now - 30 * DAY }))
    }
    const rows = await database.transaction((trx) =>
      claimDueDeliveries(trx, database.dialect, { worker, now, until: now + claimMs, limit: CLAIM_BATCH }),
    )
    if (rows.length === 0) return 0
    const [subscriptions, phones] = await Promise.all([
      subscriptionsByIds(
        database.db,
        rows.flatMap((row) => (row.subscription_id === null ? [] : [row.subscription_id])),
      ),
      phoneNumbersByUserIds(database.db, [
        ...new Set(rows.filter((row) => row.channel === 'sms').map((row) => row.user_id)),
      ]),
    ])
    const subscriptionById = new Map(subscriptions.map((s) => [s.id, s]))
    const phoneByUser = new Map(phones.map((p) => [p.id, p.phone_number]))

    const sent: number[] = []
    const queue = [...rows]
    const sendNext = async (): Promise<void> => {
      for (let row = queue.shift(); row; row = queue.shift()) {
        const outcome = await sendOne(row).catch((error: unknown): Outcome => ({
          kind: 'retry',
          error: (error as Error).message ?? String(error),
        }))
        if (outcome.kind === 'sent') sent.push(row.id)
        else
          await settle(row, outcome).catch((error: unknown) => log.error({ err: error }, 'deliveries: settle failed'))
      }
    }
    await Promise.all(Array.from({ length: Math.min(SEND_CONCURRENCY, rows.length) }, sendNext))
    await database.transaction((trx) => markDelivered(trx, worker, sent, clock.now()))
    return rows.length

    async function sendOne(row: DeliveryRow): Promise<Outcome> {
      if (row.channel === 'push') {
        const subscription = row.subscription_id === null ? undefined : subscriptionById.get(row.subscription_id)
        if (!subscription) return { kind: 'failed', error: 'the subscription was removed' }
        const left = remainingTtlSeconds(row, clock.now())
        if (left !== null && left <= 0) return { kind: 'failed', error: 'expired before it could be sent' }
        return push.send(subscription, row.payload, left ?? 0)
      }
      const to = phoneByUser.get(row.user_id)
      if (!to) return { kind: 'failed', error: 'the learner has no phone number' }
      const left = remainingTtlSeconds(row, clock.now())
      if (left !== null && left <= 0) return { kind: 'failed', error: 'expired before it could be sent' }
      const { text, purpose } = JSON.parse(row.payload) as { text: string; purpose: string }
      try {
        await sms.send({ to, text, purpose })
        return { kind: 'sent' }
      } catch (error) {
        return { kind: 'retry', error: `SMS not sent: ${(error as Error).message}` }
      }
    }
  }

  async function settle(row: DeliveryRow, outcome: Exclude<Outcome, { kind: 'sent' }>) {
    const now = clock.now()
    if (outcome.kind === 'gone') {
      log.info({ delivery: row.id, status: outcome.status }, 'deliveries: push subscription gone, removed')
      await database.transaction((trx) => deleteSubscriptionById(trx, row.subscription_id!))
      return
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
    timer = setTimeout(async () => {
      const claimed = await drainOnce()
      // A full batch says there is more waiting: go on at once (after the requests that arrived meanwhile).
      schedule(claimed === CLAIM_BATCH ? 0 : config.deliveryIntervalMs)
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
      await running?.catch(() => 0)
    },
    drainOnce,
  }
}

/**
 * Seconds left of the row's TTL (from when it was queued), or null for a row without one or with TTL 0 (a push only
 * for a browser online now, sent as such however late).
 */
function remainingTtlSeconds(row: DeliveryRow, now: number): number | null {
  if (row.ttl_seconds === null || row.ttl_seconds === 0) return null
  return Math.floor((row.created_at + row.ttl_seconds * 1000 - now) / 1000)
}
