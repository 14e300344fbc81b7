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
import { setTags, softDeleteBankQuestion, updateBankDetails } from './bank.repository'
import { setCurrentRevision } from './admin.repository'

type BankQuery = z.output<typeof BankListQuerySchema>
type BankQuestionInput = z.output<typeof BankQuestionInputSchema>

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
    options: question.options.map((option) => ({ text: option.text, is_correct: option.is_correct })),
  })
  const label = (question: BankQuestion) => question.text.en.slice(0, 80)

  return {
    list: (query: BankQuery): Promise<BankList> => listBank(db, query),

    facets: (): Promise<BankFacets> => bankFacets(db),

    get: (questionId: number) => bankQuestion(db, questionId),

    create(input: BankQuestionInput, actor: AuditActor): Promise<BankQuestion> {
      return database.transaction(async (trx) => {
        const now = clock.now()
        const questionId = await insertBankQuestion(trx, input, now, input)
        await setTags(trx, questionId, input.tags)
        const question = await bankQuestion(trx, questionId)
        await recordAudit(trx, actor, now, {
          action: 'create',
          entityType: 'question',
          entityId: questionId,
          label: label(question),
          after: auditValues(question),
        })
        return question
      })
    },

    replace(questionId: number, input: BankQuestionInput, actor: AuditActor): Promise<BankQuestion> {
      return database.transaction(async (trx) => {
        const before = await bankQuestion(trx, questionId)
        const now = clock.now()
        const revisionId = await insertRevision(trx, questionId, input, now)
        await setCurrentRevision(trx, questionId, revisionId)
        await updateBankDetails(trx, questionId, { difficulty: input.difficulty, source: input.source })
        await setTags(trx, questionId, input.tags)
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
