import {
  adminMessages,
  bankMessages,
  liveMessages,
  quizDefaults,
  type AdminQuestion,
  type Bilingual,
  type AdminQuiz,
  type AdminQuizWithPaper as AdminQuizDetail,
  type SectionInput,
  type Difficulty,
  type QuizStatus,
  type RichText,
} from '@quiz/contracts'
import type { CreateQuizFromJsonSchema, QuizPatchSchema } from '@quiz/contracts'
import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { z } from 'zod'
import { changedFields, recordAudit, type AuditActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import type { DB, QuizRow, QuizRowUpdate } from '../db/schema'
import { Conflict, NotFound, ValidationFailed } from '../http/errors'
import { toIso, toIsoOrNull } from '../lib/clock'
import { findAnswerKeys } from '../questions/answer-keys'
import {
  findRevisions,
  insertQuestion,
  insertRevision,
  listCurrentRevisionIds,
  type QuestionContent,
} from '../questions/question-revisions.repository'
import { checkPaper, drawFrozenPaper, readPaper, timedMinutes, writePaper } from './paper'
import {
  appendFixedItems,
  findFixedQuestion as findLiveQuestion,
  findLiveBankQuestion,
  removeFixedItem,
} from '../questions/quiz-papers.repository'
import {
  findLiveQuiz,
  hasFinishedAttempt,
  hasRunningAttempt,
  insertQuestionsInBulk,
  insertQuiz,
  listLiveQuizzes,
  setCurrentRevision,
  softDeleteQuiz,
  updateQuiz,
} from './admin.repository'
import { followLiveSchedule, liveScheduleError } from '../live/live.service'
import { toQuestionDto } from './question-dto'

type QuizPatch = z.output<typeof QuizPatchSchema>
type CreateQuizFromJsonInput = z.output<typeof CreateQuizFromJsonSchema>

export const quizNotFound = () => new NotFound('Quiz not found.')
const questionNotFound = () => new NotFound('Question not found.')

export function toQuizDto(quiz: QuizRow, questionCount: number): AdminQuiz {
  return {
    id: quiz.id,
    title: { en: quiz.title_en, ne: quiz.title_ne },
    start_time: toIso(quiz.start_time),
    end_time: toIsoOrNull(quiz.end_time),
    duration_minutes: quiz.duration_minutes,
    difficulty: quiz.difficulty as Difficulty,
    is_paid_tier: quiz.is_paid_tier === 1,
    allowed_attempts: quiz.allowed_attempts,
    shuffle_questions: quiz.shuffle_questions === 1,
    shuffle_options: quiz.shuffle_options === 1,
    challenge_days: quiz.challenge_days,
    upload_grace_minutes: quiz.upload_grace_minutes,
    live:
      quiz.live_starts_at === null || quiz.live_join_minutes === null
        ? null
        : { starts_at: toIso(quiz.live_starts_at), join_minutes: quiz.live_join_minutes },
    question_count: questionCount,
    status: quiz.status as QuizStatus,
  }
}

/** A new quiz's titles, times and duration; the schema checked the bounds when both were given, not a start of now. */
export function newQuizBasics(
  input: { title: Bilingual; start_time?: string | null; end_time?: string | null; duration_minutes?: number },
  now: number,
) {
  const startTime = input.start_time ? Date.parse(input.start_time) : now
  const endTime = input.end_time ? Date.parse(input.end_time) : null
  if (endTime !== null && startTime >= endTime) throw new ValidationFailed({ end_time: [adminMessages.endAfterStart] })
  return {
    title_en: input.title.en,
    title_ne: input.title.ne,
    start_time: startTime,
    end_time: endTime,
    duration_minutes: input.duration_minutes ?? quizDefaults.duration_minutes,
  }
}

export function quizValues(quiz: QuizRow) {
  const { id: _id, question_count: _count, ...values } = toQuizDto(quiz, 0)
  return values
}

// An SVG is up to 200 KB: the trail keeps its size and digest (the revision itself is kept for ever).
const imageValues = (image: AdminQuestion['image']) =>
  image && {
    ...(image.svg === null
      ? { picture: image.picture?.url ?? null }
      : {
          svg: `${Buffer.byteLength(image.svg)} bytes, sha256 ${createHash('sha256').update(image.svg).digest('hex').slice(0, 16)}`,
        }),
    caption: source(image.caption),
  }

const source = (text: RichText) => ({ en: text.en, ne: text.ne })

const LABEL_LENGTH = 80
const questionLabel = (question: AdminQuestion) =>
  question.text.en.length > LABEL_LENGTH ? `${question.text.en.slice(0, LABEL_LENGTH - 1)}…` : question.text.en

/** A question as the audit trail records it; option ids are left out (every edit makes new ones). */
function questionValues(quizId: number, question: AdminQuestion) {
  return {
    quiz_id: quizId,
    text: source(question.text),
    hint: question.hint && source(question.hint),
    topic: question.topic,
    image: imageValues(question.image),
    options: question.options.map((option) => ({
      text: source(option.text),
      is_correct: option.is_correct,
      image: imageValues(option.image),
    })),
  }
}

export async function quizDetail(db: Kysely<DB>, quiz: QuizRow): Promise<AdminQuizDetail> {
  const current = await listCurrentRevisionIds(db, quiz.id)
  const revisionIds = current.map((question) => question.revision_id)
  const [revisions, keys] = await Promise.all([findRevisions(db, revisionIds), findAnswerKeys(db, revisionIds)])
  const questions = current.map((question) =>
    toQuestionDto(question.question_id, revisions.get(question.revision_id)!, keys.get(question.revision_id)),
  )
  return {
    ...toQuizDto(quiz, quiz.question_count),
    questions,
    ...(await readPaper(db, quiz.id, quiz.draw_mode, quiz.frozen_draw)),
  }
}

/** A draft has no learners to remind or rank (docs/decisions/048): its schedule is followed from its publishing. */
async function followScheduleIfPublished(trx: Kysely<DB>, before: QuizRow | null, after: QuizRow, now: number) {
  if (after.status === 'published') await followLiveSchedule(trx, before, after, now)
}

export function quizRequirer(database: AppContext['database']) {
  const forUpdate = database.dialect === 'postgres'
  return async function requireLiveQuiz(db: Kysely<DB>, id: number) {
    const quiz = await findLiveQuiz(db, id, { forUpdate })
    if (!quiz) throw quizNotFound()
    return quiz
  }
}

export function createAdminService({ database, clock }: Pick<AppContext, 'database' | 'clock'>) {
  const requireLiveQuiz = quizRequirer(database)

  async function questionDto(db: Kysely<DB>, questionId: number, revisionId: number) {
    const [revisions, keys] = await Promise.all([findRevisions(db, [revisionId]), findAnswerKeys(db, [revisionId])])
    return toQuestionDto(questionId, revisions.get(revisionId)!, keys.get(revisionId))
  }

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

    replaceSections(id: number, sections: SectionInput[], actor: AuditActor): Promise<AdminQuizDetail> {
      return database.transaction(async (trx) => {
        const quiz = await requireLiveQuiz(trx, id)
        const timed = await checkPaper(trx, sections)
        await writePaper(trx, id, sections)
        if (timed !== null) await updateQuiz(trx, id, { duration_minutes: timed })
        const updated = (await findLiveQuiz(trx, id))!
        const liveError = liveScheduleError(updated)
        if (liveError) throw new ValidationFailed({ sections: [liveError] })
        await followScheduleIfPublished(trx, quiz, updated, clock.now())
        await recordAudit(trx, actor, clock.now(), {
          action: 'update',
          entityType: 'quiz',
          entityId: id,
          label: quiz.title_en,
          after: { sections: sections.length, question_count: updated.question_count },
        })
        return quizDetail(trx, updated)
      })
    },

    freeze(id: number, actor: AuditActor): Promise<AdminQuizDetail> {
      return database.transaction(async (trx) => {
        const quiz = await requireLiveQuiz(trx, id)
        if (quiz.frozen_draw === null) await drawFrozenPaper(trx, id)
        else if (quiz.draw_mode !== 'frozen') await updateQuiz(trx, id, { draw_mode: 'frozen' })
        await recordAudit(trx, actor, clock.now(), {
          action: 'update',
          entityType: 'quiz',
          entityId: id,
          label: quiz.title_en,
          after: { draw_mode: 'frozen', frozen: true },
        })
        return quizDetail(trx, (await findLiveQuiz(trx, id))!)
      })
    },

    redraw(id: number, actor: AuditActor): Promise<AdminQuizDetail> {
      return database.transaction(async (trx) => {
        const quiz = await requireLiveQuiz(trx, id)
        if (await hasFinishedAttempt(trx, id)) throw new Conflict(bankMessages.redrawRefused)
        await drawFrozenPaper(trx, id)
        await recordAudit(trx, actor, clock.now(), {
          action: 'update',
          entityType: 'quiz',
          entityId: id,
          label: quiz.title_en,
          after: { redrawn: true },
        })
        return quizDetail(trx, (await findLiveQuiz(trx, id))!)
      })
    },

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

    addQuestion(quizId: number, content: QuestionContent, actor: AuditActor): Promise<AdminQuestion> {
      return database.transaction(async (trx) => {
        await requireLiveQuiz(trx, quizId)
        const now = clock.now()
        const questionId = await insertQuestion(trx, quizId, content, now)
        const question = await findLiveQuestion(trx, quizId, questionId)
        const dto = await questionDto(trx, questionId, question!.revision_id)
        await recordAudit(trx, actor, now, {
          action: 'create',
          entityType: 'question',
          entityId: questionId,
          label: questionLabel(dto),
          after: questionValues(quizId, dto),
        })
        return dto
      })
    },

    addBankQuestion(quizId: number, questionId: number, actor: AuditActor): Promise<AdminQuestion> {
      return database.transaction(async (trx) => {
        await requireLiveQuiz(trx, quizId)
        const question = await findLiveBankQuestion(trx, questionId)
        if (!question) throw new ValidationFailed({ question_id: [bankMessages.unknownQuestion] })
        if (await findLiveQuestion(trx, quizId, questionId))
          throw new ValidationFailed({ question_id: [bankMessages.duplicateQuestion] })
        await appendFixedItems(trx, quizId, [questionId])
        const dto = await questionDto(trx, questionId, question.revision_id)
        await recordAudit(trx, actor, clock.now(), {
          action: 'update',
          entityType: 'quiz',
          entityId: quizId,
          label: questionLabel(dto),
          after: { added_question_id: questionId },
        })
        return dto
      })
    },

    replaceQuestion(
      quizId: number,
      questionId: number,
      content: QuestionContent,
      actor: AuditActor,
    ): Promise<AdminQuestion> {
      return database.transaction(async (trx) => {
        await requireLiveQuiz(trx, quizId)
        const current = await findLiveQuestion(trx, quizId, questionId)
        if (!current) throw questionNotFound()
        const before = await questionDto(trx, questionId, current.revision_id)
        const now = clock.now()
        const revisionId = await insertRevision(trx, questionId, content, now)
        await setCurrentRevision(trx, questionId, revisionId)
        const after = await questionDto(trx, questionId, revisionId)
        await recordAudit(trx, actor, now, {
          action: 'update',
          entityType: 'question',
          entityId: questionId,
          label: questionLabel(after),
          ...changedFields(questionValues(quizId, before), questionValues(quizId, after)),
        })
        return after
      })
    },

    deleteQuestion(quizId: number, questionId: number, actor: AuditActor): Promise<void> {
      return database.transaction(async (trx) => {
        await requireLiveQuiz(trx, quizId)
        const current = await findLiveQuestion(trx, quizId, questionId)
        const now = clock.now()
        if (!current || !(await removeFixedItem(trx, quizId, questionId))) throw questionNotFound()
        const before = await questionDto(trx, questionId, current.revision_id)
        await recordAudit(trx, actor, now, {
          action: 'delete',
          entityType: 'question',
          entityId: questionId,
          label: questionLabel(before),
          before: questionValues(quizId, before),
        })
      })
    },

    async createQuizFromJson(input: CreateQuizFromJsonInput, actor: AuditActor): Promise<{ quiz_id: number }> {
      const now = clock.now()
      const basics = newQuizBasics(input, now)
      const quizId = await database.transaction(async (trx) => {
        const id = await insertQuiz(trx, {
          ...basics,
          is_paid_tier: input.is_paid_tier ? 1 : 0,
          allowed_attempts: input.allowed_attempts,
          difficulty: input.difficulty,
          shuffle_questions: input.shuffle_questions ? 1 : 0,
          shuffle_options: input.shuffle_options ? 1 : 0,
          challenge_days: input.challenge_days,
          upload_grace_minutes: input.upload_grace_minutes,
          draw_mode: input.live ? 'frozen' : input.draw_mode,
          live_starts_at: input.live ? Date.parse(input.live.starts_at) : null,
          live_join_minutes: input.live ? input.live.join_minutes : null,
          created_at: now,
          deleted_at: null,
          status: input.status,
        })
        if (input.questions) await insertQuestionsInBulk(trx, id, input.questions, now)
        if (input.sections) {
          const inline = input.sections.flatMap((section) =>
            section.items.flatMap((item) => ('question_id' in item || 'draw' in item ? [] : [item])),
          )
          const newIds = await insertQuestionsInBulk(trx, null, inline, now)
          let next = 0
          const sections: SectionInput[] = input.sections.map((section) => ({
            ...section,
            items: section.items.map((item) =>
              'question_id' in item || 'draw' in item ? item : { question_id: newIds[next++]! },
            ),
          }))
          const timed = await checkPaper(trx, sections)
          if (timed !== null) {
            if (input.duration_minutes !== undefined && input.duration_minutes !== timed)
              throw new ValidationFailed({ duration_minutes: [bankMessages.durationFromSections] })
            await updateQuiz(trx, id, { duration_minutes: timed })
          }
          await writePaper(trx, id, sections)
        }
        const quiz = (await findLiveQuiz(trx, id))!
        const liveError = liveScheduleError(quiz)
        if (liveError)
          throw new ValidationFailed({
            [liveError === liveMessages.joinAfterEnd ? 'live.join_minutes' : 'live.starts_at']: [liveError],
          })
        await followScheduleIfPublished(trx, null, quiz, now)
        await recordAudit(trx, actor, now, {
          action: 'create',
          entityType: 'quiz',
          entityId: id,
          label: quiz.title_en,
          after: { ...quizValues(quiz), question_count: quiz.question_count },
        })
        return id
      })
      return { quiz_id: quizId }
    },
  }
}

export type AdminService = ReturnType<typeof createAdminService>
