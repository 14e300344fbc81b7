import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import type { TokenUser } from '../http/tokens'
import { isQuizActive, quizNotActive } from './attempt-rules'
import type { AttemptLifecycle } from './attempts.service'
import { findQuizWithAttemptInProgress } from './learner-quizzes.repository'

export type AttemptInProgress = NonNullable<Awaited<ReturnType<ReturnType<typeof createAttemptInProgress>>>>

/** The quiz and the attempt in progress (undefined: none); 404 for an unknown quiz, or an inactive one without one. */
export function createAttemptInProgress({ db, lifecycle }: { db: Kysely<DB>; lifecycle: AttemptLifecycle }) {
  return async function attemptInProgress(user: TokenUser, quizId: number, now: number) {
    const row = await findQuizWithAttemptInProgress(db, quizId, user.id)
    if (!row) throw quizNotActive()
    const live =
      row.attempt_id !== null && lifecycle.isLive({ status: 'in_progress', deadline: row.deadline! }, now)
        ? {
            id: row.attempt_id,
            deadline: row.deadline!,
            started_at: row.started_at!,
            revision_ids: row.revision_ids!,
            option_order: row.option_order ?? null,
            sections: row.sections ?? null,
            current_section: row.current_section ?? 0,
            section_opened_at: row.section_opened_at ?? null,
            passages_version: row.passages_version,
          }
        : undefined
    if (row.attempt_id !== null && !live) await lifecycle.settleExpired(user.id, quizId)
    if (!live && !isQuizActive(row, now)) throw quizNotActive()
    return live
  }
}
