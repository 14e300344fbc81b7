import {
  bankMessages,
  type BankFacets,
  type BankList,
  type BankListQuerySchema,
  type BankQuestion,
  type BankQuestionInputSchema,
} from '@quiz/contracts'
import type { z } from 'zod'
import { changedFields, recordAudit, type AuditActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import { AppError } from '../http/errors'
import { insertBankQuestion, insertRevision } from '../questions/question-revisions.repository'
import { bankFacets, bankQuestion, listBank, questionNotFound } from './bank-reads'
import { setCopiedFrom, setTags, softDeleteBankQuestion, updateBankDetails } from './bank.repository'
import { setCurrentRevision } from './admin.repository'
import { setNeedsSight } from '../questions/needs-sight.repository'
import { withUpdates } from './platform-source'
import type { QuestionContent } from '../questions/question-revisions.repository'

type BankQuery = z.output<typeof BankListQuerySchema>
type BankQuestionInput = z.output<typeof BankQuestionInputSchema>
/** What a bank question is written from: the admin's input, or a platform question's revision (a copy). */
type BankContent = QuestionContent &
  Pick<BankQuestionInput, 'tags' | 'difficulty' | 'source'> & { needs_sight?: boolean }
/** A copy's source: the platform question and the revision written (docs/decisions/101). */
export interface CopySource {
  questionId: number
  revision: number
}

export function createBankService({ database, clock }: Pick<AppContext, 'database' | 'clock'>) {
  const { db } = database

  const auditValues = (question: BankQuestion) => ({
    type: question.type,
    ...(question.type === 'written'
      ? { marks: question.marks, word_limit: question.word_limit, model_answer: question.model_answer }
      : {}),
    text: question.text,
    topic: question.topic,
    tags: question.tags,
    difficulty: question.difficulty,
    source: question.source,
    needs_sight: question.needs_sight,
    options: question.options.map((option) => ({ text: option.text, is_correct: option.is_correct })),
  })
  const label = (question: BankQuestion) => question.text.en.slice(0, 80)
  // The platform's bank tells whether a copy's source moved on: read outside the transaction, in its scope.
  const one = async (question: BankQuestion) => (await withUpdates(db, [question]))[0]!

  return {
    async list(query: BankQuery): Promise<BankList> {
      const page = await listBank(db, query)
      return { ...page, results: await withUpdates(db, page.results) }
    },

    facets: (): Promise<BankFacets> => bankFacets(db),

    get: async (questionId: number) => one(await bankQuestion(db, questionId)),

    async create(input: BankContent, actor: AuditActor, copiedFrom?: CopySource): Promise<BankQuestion> {
      const created = await database.transaction(async (trx) => {
        const now = clock.now()
        const questionId = await insertBankQuestion(trx, input, now, input)
        if (copiedFrom) await setCopiedFrom(trx, questionId, copiedFrom)
        await setTags(trx, questionId, input.tags)
        if (input.needs_sight) await setNeedsSight(trx, questionId, true)
        const question = await bankQuestion(trx, questionId)
        await recordAudit(trx, actor, now, {
          action: 'create',
          entityType: 'question',
          entityId: questionId,
          label: label(question),
          after: { ...auditValues(question), ...(question.copied_from && { copied_from: question.copied_from }) },
        })
        return question
      })
      return one(created)
    },

    /** A new revision; `copiedFrom`: the platform revision it takes (update-from-source). */
    async replace(
      questionId: number,
      input: BankContent,
      actor: AuditActor,
      copiedFrom?: CopySource,
    ): Promise<BankQuestion> {
      const replaced = await database.transaction(async (trx) => {
        const before = await bankQuestion(trx, questionId)
        const now = clock.now()
        const revisionId = await insertRevision(trx, questionId, input, now)
        await setCurrentRevision(trx, questionId, revisionId)
        if (copiedFrom) await setCopiedFrom(trx, questionId, copiedFrom)
        await updateBankDetails(trx, questionId, { difficulty: input.difficulty, source: input.source })
        await setTags(trx, questionId, input.tags)
        if (input.needs_sight !== undefined) await setNeedsSight(trx, questionId, input.needs_sight)
        const after = await bankQuestion(trx, questionId)
        await recordAudit(trx, actor, now, {
          action: 'update',
          entityType: 'question',
          entityId: questionId,
          label: label(after),
          ...changedFields(auditValues(before), auditValues(after)),
        })
        return after
      })
      return one(replaced)
    },

    remove(questionId: number, actor: AuditActor): Promise<void> {
      return database.transaction(async (trx) => {
        const question = await bankQuestion(trx, questionId)
        if (question.used_in.length > 0) {
          throw new AppError(409, 'question_in_use', bankMessages.inUse, undefined, undefined, {
            quizzes: question.used_in.map((quiz) => ({ id: quiz.quiz_id, title: quiz.title })),
          })
        }
        const now = clock.now()
        if (!(await softDeleteBankQuestion(trx, questionId, now))) throw questionNotFound()
        await recordAudit(trx, actor, now, {
          action: 'delete',
          entityType: 'question',
          entityId: questionId,
          label: label(question),
          before: auditValues(question),
        })
      })
    },
  }
}

export type BankService = ReturnType<typeof createBankService>
