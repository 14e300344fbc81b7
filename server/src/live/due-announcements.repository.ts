import type { Kysely, Selectable } from 'kysely'
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

/** False when another sender claimed it first; one transaction and its notifications win (docs/decisions/038). */
export async function claimAnnouncement(trx: Kysely<DB>, id: number, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('live_announcements')
    .set({ status: 'sent', sent_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

export async function skipAnnouncement(trx: Kysely<DB>, id: number) {
  await trx.updateTable('live_announcements').set({ status: 'skipped', sent_at: null }).where('id', '=', id).execute()
}

export async function recordRecipients(trx: Kysely<DB>, id: number, recipients: number) {
  await trx.updateTable('live_announcements').set({ recipients }).where('id', '=', id).execute()
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

export async function registeredLearners(trx: Kysely<DB>, quizId: number) {
  return trx
    .selectFrom('live_registrations as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['u.id', 'u.sms_reminders', 'u.preferred_language'])
    .where('r.quiz_id', '=', quizId)
    .orderBy('u.id')
    .execute()
}
