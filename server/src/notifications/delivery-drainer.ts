import { randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { AppContext } from '../context'
import { forEachInstitute } from '../db/institute-jobs'
import { claimDueDeliveries, pruneFinished, type DeliveryRow } from './deliveries.repository'
import { createTickBudget } from './delivery-budget'
import { createDeliverySend } from './delivery-send'
import { createPushSender, type PushSender } from './push-sender'

export { MAX_ATTEMPTS, PUSH_TIMEOUTS_BEFORE_DROP, RETRY_DELAYS_MS } from './delivery-send'

export const SEND_SLOTS = 8
/** A send not answered after this long gives its slot back (issue 54): hanging endpoints cannot hold every slot. */
export const SLOW_AFTER_MS = 1_000
export const SLOW_SENDS = 64
const HOUR = 3_600_000
const DAY = 24 * HOUR

export interface DeliveryDrainer {
  start(): void
  stop(): Promise<void>
  drainOnce(): Promise<number>
  drainTick(): Promise<number>
}

// Each row claimed by one process (docs/decisions/035); a hanging push service holds one slot (docs/decisions/042).
export function createDeliveryDrainer(
  deps: Pick<AppContext, 'database' | 'clock' | 'config' | 'sms'>,
  log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'info'>,
  push: PushSender = createPushSender(deps.config.push),
): DeliveryDrainer {
  const { database, clock, config } = deps
  const worker = `${process.pid}-${randomBytes(6).toString('hex')}`
  const deliver = createDeliverySend(deps, log, push, worker)
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
  const budget = createTickBudget(config)

  function claim(slots: () => number): Promise<Promise<void>[]> {
    const next = claiming.then(async () => {
      const now = clock.now()
      const prune = now - prunedAt > HOUR
      if (prune) prunedAt = now
      let room = slots()
      const launched: Promise<void>[] = []
      // Each institute's rows in its own scope, its sends launched in it: their writes are its (decision 098). The
      // hourly prune visits every institute; the claims only those with a pending delivery due (decision 121), also
      // in the prune's pass (at 1,000 institutes a claim's window query in each was half of a 4 s pass).
      if (prune)
        await forEachInstitute(database, 'deliveries', () =>
          database.transaction((trx) => pruneFinished(trx, { doneBefore: now - DAY, failedBefore: now - 30 * DAY })),
        )
      await forEachInstitute(
        database,
        'deliveries',
        async () => {
          const limit = Math.min(room, budget.left())
          if (limit <= 0) return
          const rows = await database.transaction((trx) =>
            claimDueDeliveries(trx, database.dialect, { worker, now, until: now + claimMs, limit }),
          )
          budget.spend(rows.length)
          room -= rows.length
          launched.push(...rows.map(launch))
        },
        { withWork: { job: 'deliveries', now } },
      )
      return launched
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

  async function drainOnce(): Promise<number> {
    let claimed = 0
    try {
      for (;;) {
        budget.reset()
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
    budget.beginIfDue(true)
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
    budget.beginIfDue()
    try {
      await claim(() => SEND_SLOTS - holdingSlot.size)
    } catch (error) {
      log.error({ err: error }, 'deliveries: a claim failed; its rows are sent again once their claim expires')
    }
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
