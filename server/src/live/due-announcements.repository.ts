import { sql, type Kysely, type Selectable } from 'kysely'
import type { Dialect } from '../db/database'
import type { DB, LiveAnnouncementTable } from '../db/schema'

export type AnnouncementRow = Selectable<LiveAnnouncementTable>

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

/** The pending row, locked; undefined when settled or (PostgreSQL) held by another process, skipped (decision 070). */
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
