import { sql, type Kysely, type Selectable } from 'kysely'
import type { Dialect } from '../db/database'
import type { DB, LiveAnnouncementTable } from '../db/schema'

export type AnnouncementRow = Selectable<LiveAnnouncementTable>

/** Pending announcements whose time has come, oldest first (by the live_announcements_due index). */
export async function dueAnnouncements(db: Kysely<DB>, now: number, limit: number): Promise<AnnouncementRow[]> {
  return db
    .selectFrom('live_announcements')
    .selectAll()
    .where('status', '=', 'pending')
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .orderBy('id')
    .limit(limit)
    .execute()
}

/**
 * The pending row, locked for this transaction; undefined when it was settled, or (PostgreSQL) another process holds
 * it now, which skips it rather than waits. SQLite's one writer serialises the transactions (docs/decisions/070).
 */
export async function lockPendingAnnouncement(
  trx: Kysely<DB>,
  dialect: Dialect,
  id: number,
): Promise<AnnouncementRow | undefined> {
  let query = trx.selectFrom('live_announcements').selectAll().where('id', '=', id).where('status', '=', 'pending')
  if (dialect === 'postgres') query = query.forUpdate().skipLocked()
  return query.executeTakeFirst()
}

export async function skipAnnouncement(trx: Kysely<DB>, id: number) {
  await trx.updateTable('live_announcements').set({ status: 'skipped', sent_at: null }).where('id', '=', id).execute()
}

/** A chunk told: the row moves on past its last learner, and is sent once the last chunk is. */
export async function advanceAnnouncement(
  trx: Kysely<DB>,
  id: number,
  { doneThrough, told, last, now }: { doneThrough: number; told: number; last: boolean; now: number },
) {
  await trx
    .updateTable('live_announcements')
    .set((eb) => ({
      done_through: doneThrough,
      recipients: eb(eb.fn.coalesce('recipients', sql.lit(0)), '+', told),
      ...(last ? { status: 'sent' as const, sent_at: now } : {}),
    }))
    .where('id', '=', id)
    .execute()
}

/** Whether the mock's end job has written the board of this schedule: results go out only after it. */
export async function boardWritten(trx: Kysely<DB>, quizId: number, startsAt: number): Promise<boolean> {
  const row = await trx
    .selectFrom('leaderboard_snapshots')
    .select('quiz_id')
    .where('quiz_id', '=', quizId)
    .where('starts_at', '=', startsAt)
    .executeTakeFirst()
  return row !== undefined
}

/** The quiz as an announcement names it, with its current schedule; undefined once deleted or back in draft. */
export async function announcedQuiz(trx: Kysely<DB>, quizId: number) {
  return trx
    .selectFrom('quizzes')
    .select(['id', 'title_en', 'title_ne', 'live_starts_at'])
    .where('id', '=', quizId)
    .where('deleted_at', 'is', null)
    .where('status', '=', 'published')
    .executeTakeFirst()
}

/** The next `limit` registered learners after learner `after`, in id order. */
export async function registeredLearners(trx: Kysely<DB>, quizId: number, after: number, limit: number) {
  return trx
    .selectFrom('live_registrations as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['u.id', 'u.sms_reminders', 'u.preferred_language'])
    .where('r.quiz_id', '=', quizId)
    .where('u.id', '>', after)
    .orderBy('u.id')
    .limit(limit)
    .execute()
}
