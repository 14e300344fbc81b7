import { bankMessages, type AdminQuestion, type RichText } from '@quiz/contracts'
import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import { changedFields, recordAudit, type AuditActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import type { DB } from '../db/schema'
import { NotFound, ValidationFailed } from '../http/errors'
import { findAnswerKeys } from '../questions/answer-keys'
import {
  findRevisions,
  insertQuestion,
  insertRevision,
  type QuestionContent,
} from '../questions/question-revisions.repository'
import {
  appendFixedItems,
  findFixedQuestion as findLiveQuestion,
  findLiveBankQuestion,
  removeFixedItem,
} from '../questions/quiz-papers.repository'
import { quizRequirer } from './admin-quiz'
import { setCurrentRevision } from './admin.repository'
import { toQuestionDto } from './question-dto'

const questionNotFound = () => new NotFound('Question not found.')

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

export function createQuizQuestions({ database, clock }: Pick<AppContext, 'database' | 'clock'>) {
  const requireLiveQuiz = quizRequirer(database)

  async function questionDto(db: Kysely<DB>, questionId: number, revisionId: number) {
    const [revisions, keys] = await Promise.all([findRevisions(db, [revisionId]), findAnswerKeys(db, [revisionId])])
    return toQuestionDto(questionId, revisions.get(revisionId)!, keys.get(revisionId))
  }

  return {
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
  }
}
