import {
  adminMessages,
  liveMessages,
  quizDefaults,
  type AdminQuizWithPaper as AdminQuizDetail,
  type QuizCreateSchema,
} from '@quiz/contracts'
import type { z } from 'zod'
import { recordAudit, type AuditActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import { Conflict, ValidationFailed } from '../http/errors'
import { cancelLiveAnnouncements, followLiveSchedule, liveScheduleError } from '../live/live.service'
import { copyPaper } from '../questions/quiz-papers.repository'
import { findLiveQuiz, hasAttempts, insertQuiz, updateQuiz } from './admin.repository'
import { newQuizBasics, quizDetail, quizRequirer, quizValues } from './admin.service'

type QuizCreate = z.output<typeof QuizCreateSchema>

export function createDraftsService({ database, clock }: Pick<AppContext, 'database' | 'clock'>) {
  const requireLiveQuiz = quizRequirer(database)

  return {
    createQuiz(input: QuizCreate, actor: AuditActor): Promise<AdminQuizDetail> {
      const now = clock.now()
      const basics = newQuizBasics(input, now)
      const live = input.live ?? null
      if (live && input.draw_mode === 'per_attempt')
        throw new ValidationFailed({ draw_mode: [liveMessages.frozenPaper] })
      return database.transaction(async (trx) => {
        const id = await insertQuiz(trx, {
          ...basics,
          is_paid_tier: (input.is_paid_tier ?? quizDefaults.is_paid_tier) ? 1 : 0,
          allowed_attempts: input.allowed_attempts ?? quizDefaults.allowed_attempts,
          difficulty: input.difficulty ?? quizDefaults.difficulty,
          shuffle_questions: input.shuffle_questions ? 1 : 0,
          shuffle_options: input.shuffle_options ? 1 : 0,
          ...(input.challenge_days !== undefined && { challenge_days: input.challenge_days }),
          ...(input.upload_grace_minutes !== undefined && { upload_grace_minutes: input.upload_grace_minutes }),
          draw_mode: live ? 'frozen' : (input.draw_mode ?? 'per_attempt'),
          live_starts_at: live ? Date.parse(live.starts_at) : null,
          live_join_minutes: live ? live.join_minutes : null,
          created_at: now,
          deleted_at: null,
          status: 'draft',
        })
        const quiz = (await findLiveQuiz(trx, id))!
        const liveError = liveScheduleError(quiz)
        if (liveError)
          throw new ValidationFailed({
            [liveError === liveMessages.joinAfterEnd ? 'live.join_minutes' : 'live.starts_at']: [liveError],
          })
        await recordAudit(trx, actor, now, {
          action: 'create',
          entityType: 'quiz',
          entityId: id,
          label: quiz.title_en,
          after: { ...quizValues(quiz), question_count: 0 },
        })
        return quizDetail(trx, quiz)
      })
    },

    publish(id: number, actor: AuditActor): Promise<AdminQuizDetail> {
      return database.transaction(async (trx) => {
        const quiz = await requireLiveQuiz(trx, id)
        if (quiz.status === 'published') return quizDetail(trx, quiz)
        if (quiz.question_count === 0) throw new Conflict(adminMessages.publishEmpty, 'paper_empty')
        const now = clock.now()
        await updateQuiz(trx, id, { status: 'published' })
        const published = { ...quiz, status: 'published' }
        await followLiveSchedule(trx, null, published, now)
        await recordAudit(trx, actor, now, {
          action: 'publish',
          entityType: 'quiz',
          entityId: id,
          label: quiz.title_en,
          before: { status: 'draft' },
          after: { status: 'published' },
        })
        return quizDetail(trx, published)
      })
    },

    // Once a learner has started it, their results and the quiz's statistics depend on it staying visible to them.
    unpublish(id: number, actor: AuditActor): Promise<AdminQuizDetail> {
      return database.transaction(async (trx) => {
        const quiz = await requireLiveQuiz(trx, id)
        if (quiz.status === 'draft') return quizDetail(trx, quiz)
        if (await hasAttempts(trx, id)) throw new Conflict(adminMessages.unpublishAttempted)
        const now = clock.now()
        await updateQuiz(trx, id, { status: 'draft' })
        await cancelLiveAnnouncements(trx, id, now)
        await recordAudit(trx, actor, now, {
          action: 'unpublish',
          entityType: 'quiz',
          entityId: id,
          label: quiz.title_en,
          before: { status: 'published' },
          after: { status: 'draft' },
        })
        return quizDetail(trx, { ...quiz, status: 'draft' })
      })
    },

    duplicate(id: number, actor: AuditActor): Promise<AdminQuizDetail> {
      return database.transaction(async (trx) => {
        const quiz = await requireLiveQuiz(trx, id)
        const now = clock.now()
        const copyId = await insertQuiz(trx, {
          title_en: quiz.title_en,
          title_ne: quiz.title_ne,
          start_time: quiz.start_time,
          end_time: quiz.end_time,
          duration_minutes: quiz.duration_minutes,
          is_paid_tier: quiz.is_paid_tier,
          allowed_attempts: quiz.allowed_attempts,
          difficulty: quiz.difficulty,
          shuffle_questions: quiz.shuffle_questions,
          shuffle_options: quiz.shuffle_options,
          challenge_days: quiz.challenge_days,
          upload_grace_minutes: quiz.upload_grace_minutes,
          draw_mode: quiz.draw_mode,
          frozen_draw: null,
          live_starts_at: null,
          live_join_minutes: null,
          created_at: now,
          deleted_at: null,
          status: 'draft',
        })
        await copyPaper(trx, id, copyId)
        const copy = (await findLiveQuiz(trx, copyId))!
        await recordAudit(trx, actor, now, {
          action: 'duplicate',
          entityType: 'quiz',
          entityId: copyId,
          label: copy.title_en,
          after: { duplicated_from: id, ...quizValues(copy), question_count: copy.question_count },
        })
        return quizDetail(trx, copy)
      })
    },
  }
}

export type DraftsService = ReturnType<typeof createDraftsService>
