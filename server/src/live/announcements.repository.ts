import type { Kysely } from 'kysely'
import { liveLimits } from '@quiz/contracts'
import type { DB, LiveAnnouncementTable } from '../db/schema'

const MINUTE = 60_000
const [dayBeforeMinutes, quarterBeforeMinutes] = liveLimits.reminderMinutes

export interface LiveSchedule {
  startsAt: number
  durationMinutes: number
}

// Rows already sent stay, so a mock moved back to a schedule it had does not send them twice: docs/decisions/038.
export async function scheduleAnnouncements(
  trx: Kysely<DB>,
  quizId: number,
  schedule: LiveSchedule | null,
  now: number,
) {
  await trx.deleteFrom('live_announcements').where('quiz_id', '=', quizId).where('status', '=', 'pending').execute()
  if (schedule === null) return
  const { startsAt, durationMinutes } = schedule
  const rows: { kind: LiveAnnouncementTable['kind']; due_at: number }[] = [
    { kind: 'reminder_day', due_at: startsAt - dayBeforeMinutes * MINUTE },
    { kind: 'reminder_quarter', due_at: startsAt - quarterBeforeMinutes * MINUTE },
    { kind: 'results', due_at: startsAt + durationMinutes * MINUTE },
  ]
  const due = rows.filter((row) => row.kind === 'results' || row.due_at > now)
  if (due.length === 0) return
  await trx
    .insertInto('live_announcements')
    .values(due.map((row) => ({ quiz_id: quizId, starts_at: startsAt, ...row })))
    .onConflict((oc) => oc.columns(['quiz_id', 'kind', 'starts_at']).doNothing())
    .execute()
}
