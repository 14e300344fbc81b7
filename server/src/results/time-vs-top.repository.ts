import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { isCountedAttempt } from '../outcomes/counted-attempt.repository'

/** Fewer ranked attempts than this and there is no top 10 % worth comparing with (API.md). */
export const TOP_MIN_ATTEMPTS = 10

/**
 * The counted attempts in the top 10 % by score (at least one; ties at the cut broken by the earlier finish), or
 * none under 10 counted attempts. Two statements led by the quiz: a count and the top rows.
 */
export async function topTenthAttempts(db: Kysely<DB>, quizId: number): Promise<number[]> {
  const counted = () =>
    db
      .selectFrom('attempts as a')
      .where('a.quiz_id', '=', quizId)
      .where('a.status', '=', 'finished')
      .where(isCountedAttempt('a'))
  const row = await counted()
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst()
  const n = Number(row?.n ?? 0)
  if (n < TOP_MIN_ATTEMPTS) return []
  const top = await counted()
    .select('a.id')
    .orderBy('a.score_hundredths', 'desc')
    .orderBy('a.finished_at')
    .orderBy('a.id')
    .limit(Math.ceil(n / 10))
    .execute()
  return top.map((attempt) => attempt.id)
}

/** Seconds spent per question by each of these attempts (no row: 0 seconds). */
export async function secondsOf(db: Kysely<DB>, attemptIds: readonly number[]) {
  if (attemptIds.length === 0) return []
  return db
    .selectFrom('attempt_question_states')
    .select(['attempt_id', 'question_id', 'time_spent'])
    .where('attempt_id', 'in', [...attemptIds])
    .execute()
}
