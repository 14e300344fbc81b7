import type { FastifyBaseLogger } from 'fastify'
import type { AppContext } from '../context'
import { forEachInstitute, sum } from '../db/institute-jobs'
import { createJobLoop, type JobLoop } from '../lib/job-loop'
import { notify } from '../notifications/notifications.service'
import * as repo from './daily.repository'
import type { DailyService } from './daily.service'
import { nepalClock, nepalDay } from './nepal-days'

/** Learners one transaction reminds; the pass goes on until none is left. */
export const REMINDER_CHUNK = 500

export interface DailyJob extends JobLoop {
  /** One pass: publishes what is due and sends the reminders due; returns sets published plus learners reminded. */
  runNow(): Promise<number>
}

/**
 * Every process runs one (docs/decisions/110): the day's row is the claim of its publication and a reminder's row
 * (learner, day) the claim of its push, each committed with what it made, so nothing happens twice. The pass at start
 * publishes a set whose hour came while no process ran.
 */
export function createDailyJob(
  { database, clock, config }: Pick<AppContext, 'database' | 'clock' | 'config'>,
  daily: DailyService,
  log: Pick<FastifyBaseLogger, 'error' | 'info'>,
): DailyJob {
  async function pass(): Promise<number> {
    try {
      const now = clock.now()
      const withWork = { job: 'daily', now, today: nepalDay(now) } as const
      return sum(await forEachInstitute(database, 'daily set', passOfInstitute, { withWork }))
    } catch (error) {
      log.error({ err: error }, 'daily set: could not list the institutes')
      return 0
    }
  }

  async function passOfInstitute(institute: number): Promise<number> {
    let done = 0
    try {
      if (await daily.publishDue()) {
        done++
        log.info({ institute }, 'daily set: published')
      }
      done += await remind(institute)
    } catch (error) {
      log.error({ err: error, institute }, 'daily set: failed; tried again by the next pass')
    }
    return done
  }

  async function remind(institute: number): Promise<number> {
    const now = clock.now()
    const day = nepalDay(now)
    const row = await repo.findDay(database.db, day)
    if (!row || row.published_at === null || row.quiz_id === null) return 0
    const quizId = row.quiz_id
    let reminded = 0
    for (;;) {
      const sent = await database.transaction(async (trx) => {
        const due = await repo.dueReminders(trx, {
          institute,
          day,
          quizId,
          clock: nepalClock(now),
          limit: REMINDER_CHUNK,
        })
        const claimed = new Set(
          await repo.claimReminders(
            trx,
            due.map((learner) => learner.id),
            day,
            now,
          ),
        )
        await notify(
          trx,
          due
            .filter((learner) => claimed.has(learner.id))
            .map((learner) => ({
              userId: learner.id,
              kind: 'daily_reminder' as const,
              text: {
                en: 'Today’s daily set is waiting: keep your streak.',
                ne: 'आजको दैनिक सेट बाँकी छ: आफ्नो लगातार अभ्यास नतोड्नुहोस्।',
              },
              link: '/',
              // Worth it only today.
              push: { ttlSeconds: 6 * 60 * 60 },
            })),
          now,
        )
        return { due: due.length, claimed: claimed.size }
      })
      reminded += sent.claimed
      if (sent.due < REMINDER_CHUNK) return reminded
    }
  }

  let running: Promise<number> | undefined
  async function runNow() {
    while (running) await running
    running = pass()
    try {
      return await running
    } finally {
      running = undefined
    }
  }
  const loop = createJobLoop(config.dailyIntervalMs, runNow)
  return { start: loop.start, stop: loop.stop, runNow }
}
