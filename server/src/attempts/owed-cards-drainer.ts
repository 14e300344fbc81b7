import type { FastifyBaseLogger } from 'fastify'
import type { AppContext } from '../context'
import { forEachInstitute, sum } from '../db/institute-jobs'
import { createJobLoop, type JobLoop } from '../lib/job-loop'
import { payOldestOwedCards } from './practice-deck.repository'

/** Finishes whose owed cards one pass writes, in one transaction: a few ms of SQLite's one writer at the most. */
export const OWED_BATCH = 16

const BUSY_RETRY_MS = 5
export const MAX_DEFERRAL_MS = 1_000

export interface OwedCardsDrainer extends JobLoop {
  drain(): Promise<number>
}

// Owed practice cards written when the database is free: docs/decisions/080 "A background pass".
export function createOwedCardsDrainer(
  { database, config }: Pick<AppContext, 'database' | 'config'>,
  log: Pick<FastifyBaseLogger, 'error'>,
): OwedCardsDrainer {
  let deferredSince: number | undefined
  let askedAtLastLook = database.poolStats().asked

  async function drain(): Promise<number> {
    try {
      // Each institute's finishes in its own scope: their cards are its (decision 098).
      const paid = await forEachInstitute(
        database,
        'owed practice cards',
        () => database.transaction((trx) => payOldestOwedCards(trx, OWED_BATCH)),
        { withWork: { job: 'owed_cards', now: Date.now() } },
      )
      return sum(paid)
    } catch (error) {
      log.error({ err: error }, 'owed practice cards: not written; tried again by the next pass')
      return 0
    }
  }

  // Busy: a pass now, though a few ms, would be paid by a storm's slowest submits (decision 080).
  const busy = () => {
    const { busy, waiting, asked } = database.poolStats()
    const wrote = asked !== askedAtLastLook
    askedAtLastLook = asked
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
