import {
  adminMessages,
  bankMessages,
  liveMessages,
  type AdminQuiz,
  type AdminQuizWithPaper as AdminQuizDetail,
} from '@quiz/contracts'
import type { CreateQuizFromJsonSchema, QuizPatchSchema } from '@quiz/contracts'
import type { z } from 'zod'
import { changedFields, recordAudit, type AuditActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import type { QuizRow, QuizRowUpdate } from '../db/schema'
import { Conflict, ValidationFailed } from '../http/errors'
import { timedMinutes } from './paper'
import { findLiveQuiz, hasRunningAttempt, listLiveQuizzes, softDeleteQuiz, updateQuiz } from './admin.repository'
import { liveScheduleError } from '../live/live.service'
import { followScheduleIfPublished, quizDetail, quizNotFound, quizRequirer, quizValues, toQuizDto } from './admin-quiz'
import { addQuizFromJson } from './quiz-from-json'
import { createQuizPaperEdits } from './quiz-paper-edits'
import { createQuizQuestions } from './quiz-questions'

export { newQuizBasics, quizDetail, quizNotFound, quizRequirer, quizValues, toQuizDto } from './admin-quiz'

type QuizPatch = z.output<typeof QuizPatchSchema>
type CreateQuizFromJsonInput = z.output<typeof CreateQuizFromJsonSchema>

export function createAdminService({ database, clock }: Pick<AppContext, 'database' | 'clock'>) {
  const requireLiveQuiz = quizRequirer(database)
  const quizPaper = createQuizPaperEdits({ database, clock })
  const quizQuestions = createQuizQuestions({ database, clock })

  return {
    async listQuizzes(): Promise<AdminQuiz[]> {
      const quizzes = await listLiveQuizzes(database.db)
      return quizzes.map((quiz) => toQuizDto(quiz, quiz.question_count))
    },

    async getQuiz(id: number): Promise<AdminQuizDetail> {
      const quiz = await findLiveQuiz(database.db, id)
      if (!quiz) throw quizNotFound()
      return quizDetail(database.db, quiz)
    },

    updateQuiz(id: number, patch: QuizPatch, actor: AuditActor): Promise<AdminQuizDetail> {
      return database.transaction(async (trx) => {
        const quiz = await requireLiveQuiz(trx, id)
        const changes: QuizRowUpdate = {}
        if (patch.title !== undefined) Object.assign(changes, { title_en: patch.title.en, title_ne: patch.title.ne })
        if (patch.start_time !== undefined) changes.start_time = Date.parse(patch.start_time)
        if (patch.end_time !== undefined) changes.end_time = patch.end_time === null ? null : Date.parse(patch.end_time)
        if (patch.duration_minutes !== undefined) changes.duration_minutes = patch.duration_minutes
        if (patch.allowed_attempts !== undefined) changes.allowed_attempts = patch.allowed_attempts
        if (patch.difficulty !== undefined) changes.difficulty = patch.difficulty
        if (patch.is_paid_tier !== undefined) changes.is_paid_tier = patch.is_paid_tier ? 1 : 0
        if (patch.shuffle_questions !== undefined) changes.shuffle_questions = patch.shuffle_questions ? 1 : 0
        if (patch.shuffle_options !== undefined) changes.shuffle_options = patch.shuffle_options ? 1 : 0
        if (patch.challenge_days !== undefined) changes.challenge_days = patch.challenge_days
        if (patch.upload_grace_minutes !== undefined) changes.upload_grace_minutes = patch.upload_grace_minutes
        if (patch.draw_mode !== undefined && patch.draw_mode !== quiz.draw_mode) {
          changes.draw_mode = patch.draw_mode
          // A paper frozen again later is drawn afresh, not from a draw made before it was unfrozen.
          changes.frozen_draw = null
        }
        // A timed paper's duration is its sections' sum: a PATCH may restate it, never change it.
        if (patch.duration_minutes !== undefined) {
          const timed = await timedMinutes(trx, id)
          if (timed !== null && timed !== patch.duration_minutes)
            throw new ValidationFailed({ duration_minutes: [bankMessages.durationFromSections] })
        }

        if (patch.live !== undefined) {
          changes.live_starts_at = patch.live === null ? null : Date.parse(patch.live.starts_at)
          changes.live_join_minutes = patch.live === null ? null : patch.live.join_minutes
          // Issue 72: a learner sitting the quiz now would go on reading the mock's paper before its start.
          if (patch.live && quiz.live_starts_at === null && (await hasRunningAttempt(trx, id, clock.now())))
            throw new Conflict(liveMessages.attemptsRunning)
        }
        // A live mock sits one paper (docs/decisions/038): scheduling freezes it, drawn at its first start.
        const willBeLive =
          (changes.live_starts_at !== undefined ? changes.live_starts_at : quiz.live_starts_at) !== null
        if (willBeLive) {
          if (patch.draw_mode === 'per_attempt') throw new ValidationFailed({ draw_mode: [liveMessages.frozenPaper] })
          if (quiz.draw_mode !== 'frozen') Object.assign(changes, { draw_mode: 'frozen', frozen_draw: null })
        }

        // The rule holds for the quiz as it will be, so a new start is checked against the stored end too.
        const updated: QuizRow = { ...quiz, ...(changes as Partial<QuizRow>) }
        if (updated.end_time !== null && updated.start_time >= updated.end_time) {
          throw new ValidationFailed(
            patch.end_time !== undefined
              ? { end_time: [adminMessages.endAfterStart] }
              : { start_time: [adminMessages.startBeforeEnd] },
          )
        }
        const liveError = liveScheduleError(updated)
        if (liveError) {
          const field =
            patch.live !== undefined
              ? liveError === liveMessages.joinAfterEnd
                ? 'live.join_minutes'
                : 'live.starts_at'
              : patch.end_time !== undefined
                ? 'end_time'
                : patch.start_time !== undefined
                  ? 'start_time'
                  : 'duration_minutes'
          throw new ValidationFailed({ [field]: [liveError] })
        }
        if (Object.keys(changes).length > 0) await updateQuiz(trx, id, changes)
        await followScheduleIfPublished(trx, quiz, updated, clock.now())
        await recordAudit(trx, actor, clock.now(), {
          action: 'update',
          entityType: 'quiz',
          entityId: id,
          label: updated.title_en,
          ...changedFields(quizValues(quiz), quizValues(updated)),
        })
        return quizDetail(trx, updated)
      })
    },

    ...quizPaper,

    deleteQuiz(id: number, actor: AuditActor): Promise<void> {
      return database.transaction(async (trx) => {
        const quiz = await requireLiveQuiz(trx, id)
        const now = clock.now()
        if (!(await softDeleteQuiz(trx, id, now))) throw quizNotFound()
        await recordAudit(trx, actor, now, {
          action: 'delete',
          entityType: 'quiz',
          entityId: id,
          label: quiz.title_en,
          before: quizValues(quiz),
        })
      })
    },

    ...quizQuestions,

    createQuizFromJson: (input: CreateQuizFromJsonInput, actor: AuditActor): Promise<{ quiz_id: number }> =>
      addQuizFromJson({ database, clock }, input, actor),
  }
}

export type AdminService = ReturnType<typeof createAdminService>
