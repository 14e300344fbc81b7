import {
  passageMessages,
  type Passage,
  type PassageInputSchema,
  type PassageList,
  type PassageListQuerySchema,
  type PassagePool,
  type PassagePoolQuerySchema,
} from '@quiz/contracts'
import type { z } from 'zod'
import { changedFields, recordAudit, type AuditActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import type { DB } from '../db/schema'
import type { Kysely } from 'kysely'
import { AppError, NotFound, ValidationFailed, type FieldErrors } from '../http/errors'
import { passageValues, passageView } from '../questions/paper-passages'
import { wholePassages } from '../questions/passage-draws'
import { matchingQuestionIds } from '../questions/draws.repository'
import {
  deletePassage,
  findPassage,
  insertPassage,
  liveBankQuestionIds,
  pagePassages,
  passageOfQuestions,
  questionIdsOf,
  quizzesUsingPassage,
  setPassageQuestions,
  updatePassage,
} from '../questions/passages.repository'

type PassageInput = z.output<typeof PassageInputSchema>
type PassageQuery = z.output<typeof PassageListQuerySchema>
type PoolQuery = z.output<typeof PassagePoolQuerySchema>

export const passageNotFound = () => new NotFound(passageMessages.notFound)

async function readPassage(db: Kysely<DB>, id: number): Promise<Passage> {
  const row = await findPassage(db, id)
  if (!row) throw passageNotFound()
  return { ...passageView(row, 'admin'), question_ids: (await questionIdsOf(db, [id])).get(id) ?? [] }
}

const auditValues = (passage: Passage) => ({
  text: { en: passage.text.en, ne: passage.text.ne },
  image:
    passage.image === null ? null : { picture: passage.image.picture?.url ?? null, svg: passage.image.svg !== null },
  question_ids: passage.question_ids,
})
const label = (passage: Passage) => passage.text.en.slice(0, 80)

export function createPassagesService({ database, clock }: Pick<AppContext, 'database' | 'clock'>) {
  const { db } = database

  return {
    /** The whole passages a `passages: true` draw with these filters may take, as the paper's save counts them. */
    async pool(query: PoolQuery): Promise<PassagePool> {
      const filter = {
        topic: query.topic ?? null,
        tags: query.tag ?? [],
        difficulty: query.difficulty ?? null,
        source: query.source ?? null,
        type: query.type ?? null,
        count: 0,
        passages: true,
      }
      const wholes = await wholePassages(db, await matchingQuestionIds(db, filter), new Set())
      return { passage_sizes: wholes.map((passage) => passage.questionIds.length) }
    },
    async list(query: PassageQuery): Promise<PassageList> {
      const { count, rows } = await pagePassages(db, query.search, query.page, query.page_size)
      const questions = await questionIdsOf(
        db,
        rows.map((row) => row.id),
      )
      return {
        count,
        results: rows.map((row) => ({ ...passageView(row, 'admin'), question_ids: questions.get(row.id) ?? [] })),
      }
    },

    get: (id: number) => readPassage(db, id),

    create(input: PassageInput, actor: AuditActor): Promise<Passage> {
      return database.transaction(async (trx) => {
        const now = clock.now()
        const id = await insertPassage(trx, passageValues(input), now)
        const passage = await readPassage(trx, id)
        await recordAudit(trx, actor, now, {
          action: 'create',
          entityType: 'passage',
          entityId: id,
          label: label(passage),
          after: auditValues(passage),
        })
        return passage
      })
    },

    replace(id: number, input: PassageInput, actor: AuditActor): Promise<Passage> {
      return database.transaction(async (trx) => {
        const before = await readPassage(trx, id)
        const now = clock.now()
        await updatePassage(trx, id, passageValues(input), now)
        const after = await readPassage(trx, id)
        await recordAudit(trx, actor, now, {
          action: 'update',
          entityType: 'passage',
          entityId: id,
          label: label(after),
          ...changedFields(auditValues(before), auditValues(after)),
        })
        return after
      })
    },

    remove(id: number, actor: AuditActor): Promise<void> {
      return database.transaction(async (trx) => {
        const passage = await readPassage(trx, id)
        const quizzes = await quizzesUsingPassage(trx, id)
        if (quizzes.length > 0)
          throw new AppError(409, 'passage_in_use', passageMessages.inUse, undefined, undefined, {
            quizzes: quizzes.map((quiz) => ({ id: quiz.id, title: { en: quiz.title_en, ne: quiz.title_ne } })),
          })
        const now = clock.now()
        if (!(await deletePassage(trx, id))) throw passageNotFound()
        await recordAudit(trx, actor, now, {
          action: 'delete',
          entityType: 'passage',
          entityId: id,
          label: label(passage),
          before: auditValues(passage),
        })
      })
    },

    setQuestions(id: number, questionIds: readonly number[], actor: AuditActor): Promise<Passage> {
      return database.transaction(async (trx) => {
        const before = await readPassage(trx, id)
        const live = await liveBankQuestionIds(trx, questionIds)
        const errors: FieldErrors = {}
        questionIds.forEach((questionId, index) => {
          if (!live.has(questionId)) errors[`question_ids.${index}`] = [passageMessages.unknownQuestion]
        })
        if (Object.keys(errors).length > 0) throw new ValidationFailed(errors)
        const elsewhere = [...(await passageOfQuestions(trx, questionIds))].filter(([, passage]) => passage !== id)
        if (elsewhere.length > 0) {
          const taken = new Set(elsewhere.map(([questionId]) => questionId))
          const at: FieldErrors = {}
          questionIds.forEach((questionId, index) => {
            if (taken.has(questionId)) at[`question_ids.${index}`] = [passageMessages.inAnotherPassage]
          })
          throw new AppError(409, 'in_another_passage', passageMessages.inAnotherPassage, at, undefined, {
            questions: elsewhere.map(([question_id, passage_id]) => ({ question_id, passage_id })),
          })
        }
        const now = clock.now()
        await setPassageQuestions(trx, id, questionIds)
        await updatePassage(trx, id, {}, now)
        const after = await readPassage(trx, id)
        await recordAudit(trx, actor, now, {
          action: 'update',
          entityType: 'passage',
          entityId: id,
          label: label(after),
          ...changedFields(auditValues(before), auditValues(after)),
        })
        return after
      })
    },
  }
}

export type PassagesService = ReturnType<typeof createPassagesService>
