import type { FastifyBaseLogger } from 'fastify'
import type { AppContext } from '../context'
import { createJobLoop, type JobLoop } from '../lib/job-loop'
import { payOldestOwedCards } from './practice-deck.repository'

/** Finishes whose owed cards one pass writes, in one transaction: a few ms of SQLite's one writer at the most. */
export const OWED_BATCH = 16

/** While this process writes, a pass waits this long before looking again... */
const BUSY_RETRY_MS = 5
/** ...but no longer than this in all: a server busy without pause still writes them (its readers pay meanwhile). */
const MAX_DEFERRAL_MS = 1_000

export interface OwedCardsDrainer extends JobLoop {
  /** One pass now, whatever the load: how many finishes' cards it wrote; never throws. */
  drain(): Promise<number>
}

// Decision 080: a submit's practice cards leave the request as a one-row debt its transaction commits; every process
// runs one of these, writing the oldest debts in batches when no transaction is waiting for the database, so that
// the cards cost the submit's moment nothing. Readers of a deck pay its debts first (practice-deck.repository.ts), so
// the pass only decides when, never whether, the cards are there. A debt left by a stopped process is paid by the
// first pass after a start.
export function createOwedCardsDrainer(
  { database, config }: Pick<AppContext, 'database' | 'config'>,
  log: Pick<FastifyBaseLogger, 'error'>,
): OwedCardsDrainer {
  let deferredSince: number | undefined
  let askedAtLastLook = database.poolStats().asked

  async function drain(): Promise<number> {
    try {
      return await database.transaction((trx) => payOldestOwedCards(trx, OWED_BATCH))
    } catch (error) {
      log.error({ err: error }, 'owed practice cards: not written; tried again by the next pass')
      return 0
    }
  }

  // Busy: a transaction waits, or one was asked for since the last look. A storm of submits has moments with none
  // queued (its requests are parsed and checked between groups), and a pass there, a few ms of the one writer and of
  // the event loop, would be paid by the storm's slowest submits.
  const busy = () => {
    const { busy, waiting, asked } = database.poolStats()
    const wrote = asked !== askedAtLastLook
    askedAtLastLook = asked
    // SQLite's one writer: a group committing or queued. PostgreSQL: requests queued for a pooled connection.
    return wrote || (database.dialect === 'sqlite' ? busy + waiting > 0 : waiting > 0)
  }

  async function pass(): Promise<'more' | 'done' | 'busy'> {
    if (busy() && Date.now() - (deferredSince ??= Date.now()) < MAX_DEFERRAL_MS) return 'busy'
    deferredSince = undefined
    const paid = await drain()
    askedAtLastLook++ // the pass's own transaction: not a writer to wait for (others asked meanwhile still count)
    return paid >= OWED_BATCH ? 'more' : 'done'
  }

  const loop = createJobLoop(config.owedCardsIntervalMs, pass, (result) =>
    result === 'done' ? config.owedCardsIntervalMs : result === 'busy' ? BUSY_RETRY_MS : 0,
  )
  return { ...loop, drain }
}
