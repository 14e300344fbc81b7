import type { FastifyBaseLogger } from 'fastify'
import type { AppContext } from '../context'
import { forEachInstitute, sum } from '../db/institute-jobs'
import { createBatchJob, type JobLoop } from '../lib/job-loop'
import { notify } from '../notifications/notifications.service'
import { announcementFor } from './announcement-messages'
import {
  advanceAnnouncement,
  announcedQuiz,
  boardWritten,
  dueAnnouncements,
  lockPendingAnnouncement,
  registeredLearners,
  skipAnnouncement,
  type AnnouncementRow,
} from './due-announcements.repository'

/** Announcements one pass takes: a few mocks' worth (each has three); the next pass takes the rest. */
export const DUE_BATCH = 20

/** `waiting`: results whose mock has not been ended yet (tried again by the next pass). */
export type Outcome = 'sent' | 'skipped' | 'taken' | 'waiting'

export interface AnnouncementSender extends JobLoop {
  sendDue(): Promise<number>
}

// Every process runs one; claim and notifications commit together, so each is sent exactly once (decision 038).
export function createAnnouncementSender(
  { database, clock, config }: Pick<AppContext, 'database' | 'clock' | 'config'>,
  log: Pick<FastifyBaseLogger, 'error' | 'info'>,
): AnnouncementSender {
  // Each institute's announcements in its own scope: the notifications they write are its (decision 098).
  async function pass(): Promise<number> {
    try {
      const withWork = { job: 'announcements', now: clock.now() } as const
      return sum(await forEachInstitute(database, 'live announcements', passOfInstitute, { withWork }))
    } catch (error) {
      log.error({ err: error }, 'live announcements: could not list the institutes')
      return 0
    }
  }

  async function passOfInstitute(): Promise<number> {
    let rows: AnnouncementRow[]
    try {
      rows = await dueAnnouncements(database.db, clock.now(), DUE_BATCH)
    } catch (error) {
      log.error({ err: error }, 'live announcements: could not read the due ones')
      return 0
    }
    let settled = 0
    for (const row of rows) {
      try {
        const outcome = await settle(row)
        if (outcome === 'sent' || outcome === 'skipped') settled++
      } catch (error) {
        log.error({ err: error, announcement: row.id }, 'live announcements: not sent; tried again by the next pass')
      }
    }
    return settled
  }

  async function settle(row: AnnouncementRow): Promise<Outcome> {
    for (;;) {
      const outcome = await settleChunk(row.id)
      if (outcome !== 'more') return outcome
    }
  }

  function settleChunk(id: number): Promise<Outcome | 'more'> {
    return database.transaction(async (trx) => {
      const now = clock.now()
      const row = await lockPendingAnnouncement(trx, database.dialect, id)
      if (!row) return 'taken'
      const quiz = await announcedQuiz(trx, row.quiz_id)
      // A schedule the mock no longer has (a move may commit between read and lock), a deleted quiz, a started mock.
      const current = quiz !== undefined && quiz.live_starts_at === row.starts_at
      const tooLate = row.kind !== 'results' && now >= row.starts_at && row.done_through === 0
      if (!current || tooLate) {
        await skipAnnouncement(trx, row.id)
        log.info({ announcement: row.id, kind: row.kind, quiz: row.quiz_id }, 'live announcements: skipped')
        return 'skipped'
      }
      // Results tell of the final board: they wait for the mock's end job to have written it (decision 063).
      if (row.kind === 'results' && !(await boardWritten(trx, row.quiz_id, row.starts_at))) return 'waiting'
      const title = { en: quiz.title_en, ne: quiz.title_ne || quiz.title_en }
      const chunk = config.liveAnnouncementChunk
      const learners = await registeredLearners(trx, row.quiz_id, row.done_through, chunk)
      await notify(
        trx,
        learners.map((learner) =>
          announcementFor(row.kind, { id: row.quiz_id, title, startsAt: row.starts_at }, learner),
        ),
        now,
      )
      const last = learners.length < chunk
      await advanceAnnouncement(trx, row.id, {
        doneThrough: learners.at(-1)?.id ?? row.done_through,
        told: learners.length,
        last,
        now,
      })
      if (!last) return 'more'
      log.info({ announcement: row.id, kind: row.kind, quiz: row.quiz_id }, 'live announcements: sent')
      return 'sent'
    })
  }

  const job = createBatchJob(config.liveAnnouncementIntervalMs, DUE_BATCH, pass)
  return { start: job.start, stop: job.stop, sendDue: job.runNow }
}
