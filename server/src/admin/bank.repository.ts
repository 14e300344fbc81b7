import { sql, type Expression, type Kysely, type SqlBool } from 'kysely'
import type { DB, QuestionType } from '../db/schema'
import { undescribedPicture } from '../questions/needs-sight.repository'

// Live questions: not deleted, with a current revision.

export interface BankFilters {
  search?: string
  topic?: string
  tag?: string[]
  difficulty?: 'easy' | 'medium' | 'hard' | 'none'
  source?: string
  type?: QuestionType
  unused?: boolean
  /** Questions with a picture and no caption (API.md "Blind learners"). */
  no_description?: boolean
  ids?: number[]
}

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

function liveQuestions(db: Kysely<DB>, filters: BankFilters) {
  return (
    db
      .selectFrom('questions as q')
      .innerJoin('question_revisions as r', 'r.id', 'q.revision_id')
      .where('q.deleted_at', 'is', null)
      // A national mock's copies are no part of the institute's bank (docs/decisions/102).
      .where('q.national_mock_id', 'is', null)
      .$if(filters.search !== undefined && filters.search !== '', (query) => {
        const pattern = likePattern(filters.search!)
        return query.where(
          (eb) =>
            sql<SqlBool>`(lower(${eb.ref('r.text_en')}) like ${pattern} escape '\\' or lower(${eb.ref('r.text_ne')}) like ${pattern} escape '\\')`,
        )
      })
      .$if(filters.topic !== undefined && filters.topic !== '', (query) =>
        query.where((eb) => eb(eb.fn('lower', ['r.topic']), '=', filters.topic!.toLowerCase())),
      )
      .$if(filters.tag !== undefined && filters.tag.length > 0, (query) =>
        query.where((eb) =>
          eb.and(
            [...new Set(filters.tag!.map((tag) => tag.toLowerCase()))].map((key) =>
              eb.exists(
                eb
                  .selectFrom('question_tags as qt')
                  .innerJoin('tags as t', 't.id', 'qt.tag_id')
                  .select('qt.question_id')
                  .whereRef('qt.question_id', '=', 'q.id')
                  .where('t.name_key', '=', key),
              ),
            ),
          ),
        ),
      )
      .$if(filters.difficulty !== undefined, (query) =>
        filters.difficulty === 'none'
          ? query.where('q.difficulty', 'is', null)
          : query.where('q.difficulty', '=', filters.difficulty!),
      )
      .$if(filters.source !== undefined && filters.source !== '', (query) =>
        query.where((eb) => eb(eb.fn('lower', ['q.source']), '=', filters.source!.toLowerCase())),
      )
      .$if(filters.type !== undefined, (query) => query.where('r.type', '=', filters.type!))
      .$if(filters.unused === true, (query) =>
        query.where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('paper_items as i')
                .innerJoin('quizzes as z', 'z.id', 'i.quiz_id')
                .select('i.id')
                .whereRef('i.question_id', '=', 'q.id')
                .where('z.deleted_at', 'is', null),
            ),
          ),
        ),
      )
      .$if(filters.no_description === true, (query) => query.where((eb) => undescribedPicture(eb as never)))
      .$if(filters.ids !== undefined, (query) => query.where('q.id', 'in', filters.ids!.length ? filters.ids! : [0]))
  )
}

export async function countBank(db: Kysely<DB>, filters: BankFilters) {
  const row = await liveQuestions(db, filters)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export function pageBank(db: Kysely<DB>, filters: BankFilters, page: number, pageSize: number) {
  return liveQuestions(db, filters)
    .select(['q.id', 'q.revision_id', 'q.difficulty', 'q.source', 'r.text_en', 'r.text_ne', 'r.maths', 'r.topic'])
    .select(['r.type', 'r.marks', 'q.copied_from_question_id', 'q.copied_from_revision'])
    .orderBy('q.id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute() as Promise<
    {
      id: number
      revision_id: number
      difficulty: string | null
      source: string | null
      text_en: string
      text_ne: string
      maths: string | null
      topic: string
      type: QuestionType
      marks: number | null
      copied_from_question_id: number | null
      copied_from_revision: number | null
    }[]
  >
}

export async function tagsOf(db: Kysely<DB>, questionIds: readonly number[]) {
  const byQuestion = new Map<number, string[]>(questionIds.map((id) => [id, []]))
  if (questionIds.length === 0) return byQuestion
  const rows = await db
    .selectFrom('question_tags as qt')
    .innerJoin('tags as t', 't.id', 'qt.tag_id')
    .select(['qt.question_id', 't.name'])
    .where('qt.question_id', 'in', questionIds)
    .orderBy('qt.question_id')
    .orderBy('qt.position')
    .execute()
  for (const row of rows) byQuestion.get(row.question_id)?.push(row.name)
  return byQuestion
}

export async function quizzesUsing(db: Kysely<DB>, questionIds: readonly number[]) {
  const byQuestion = new Map<number, { id: number; title_en: string; title_ne: string }[]>(
    questionIds.map((id) => [id, []]),
  )
  if (questionIds.length === 0) return byQuestion
  const rows = await db
    .selectFrom('paper_items as i')
    .innerJoin('quizzes as z', 'z.id', 'i.quiz_id')
    .select(['i.question_id', 'z.id', 'z.title_en', 'z.title_ne'])
    .distinct()
    .where('i.question_id', 'in', questionIds)
    .where('z.deleted_at', 'is', null)
    .orderBy('z.id')
    .execute()
  for (const row of rows) byQuestion.get(row.question_id!)?.push(row)
  return byQuestion
}

// Counted per option with its revision and written key: the caller counts them under the revisions' decided keys.
export async function chosenOptionsOf(db: Kysely<DB>, questionIds: readonly number[]) {
  if (questionIds.length === 0) return []
  const rows = await db
    .selectFrom('attempt_answers as aa')
    .innerJoin('attempts as a', 'a.id', 'aa.attempt_id')
    .innerJoin('question_options as o', 'o.id', 'aa.option_id')
    .select((eb) => [
      'aa.question_id',
      'o.id',
      'o.revision_id',
      'o.is_correct',
      eb.fn.countAll<number | string>().as('n'),
    ])
    .where('aa.question_id', 'in', questionIds)
    .where('a.status', '=', 'finished')
    .groupBy(['aa.question_id', 'o.id', 'o.revision_id', 'o.is_correct'])
    .execute()
  return rows.map((row) => ({ ...row, n: Number(row.n) }))
}

export async function optionCounts(db: Kysely<DB>, revisionIds: readonly number[]) {
  const byRevision = new Map<number, number>()
  if (revisionIds.length === 0) return byRevision
  const rows = await db
    .selectFrom('question_options')
    .select((eb) => ['revision_id', eb.fn.countAll<number | string>().as('n')])
    .where('revision_id', 'in', revisionIds)
    .groupBy('revision_id')
    .execute()
  for (const row of rows) byRevision.set(row.revision_id, Number(row.n))
  return byRevision
}

export function findBankQuestion(db: Kysely<DB>, questionId: number) {
  return db
    .selectFrom('questions')
    .select(['id', 'revision_id', 'difficulty', 'source', 'copied_from_question_id', 'copied_from_revision'])
    .where('id', '=', questionId)
    .where('deleted_at', 'is', null)
    .where('revision_id', 'is not', null)
    .executeTakeFirst() as Promise<
    | {
        id: number
        revision_id: number
        difficulty: string | null
        source: string | null
        copied_from_question_id: number | null
        copied_from_revision: number | null
      }
    | undefined
  >
}

/** The current revision of each live question named (a deleted one is absent). */
export async function currentRevisionsOf(db: Kysely<DB>, questionIds: readonly number[]) {
  const rows = await db
    .selectFrom('questions')
    .select(['id', 'revision_id'])
    .where('id', 'in', [...new Set(questionIds)])
    .where('deleted_at', 'is', null)
    .where('revision_id', 'is not', null)
    .execute()
  return new Map(rows.map((row) => [row.id, row.revision_id!]))
}

/** Marks a question as a copy of a platform bank question's revision (docs/decisions/101). */
export async function setCopiedFrom(
  db: Kysely<DB>,
  questionId: number,
  from: { questionId: number; revision: number },
) {
  await db
    .updateTable('questions')
    .set({ copied_from_question_id: from.questionId, copied_from_revision: from.revision })
    .where('id', '=', questionId)
    .execute()
}

export async function updateBankDetails(
  db: Kysely<DB>,
  questionId: number,
  details: { difficulty: string | null; source: string | null },
) {
  await db.updateTable('questions').set(details).where('id', '=', questionId).execute()
}

export { setTags } from '../questions/question-tags.repository'

export async function softDeleteBankQuestion(db: Kysely<DB>, questionId: number, now: number) {
  const result = await db
    .updateTable('questions')
    .set({ deleted_at: now })
    .where('id', '=', questionId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

export async function facets(db: Kysely<DB>) {
  const live = (query: ReturnType<typeof liveQuestions>) => query
  const topics = await live(liveQuestions(db, {}))
    .select((eb) => [
      'r.topic',
      sum(eb.case().when('q.difficulty', '=', 'easy').then(1).else(0).end()).as('easy'),
      sum(eb.case().when('q.difficulty', '=', 'medium').then(1).else(0).end()).as('medium'),
      sum(eb.case().when('q.difficulty', '=', 'hard').then(1).else(0).end()).as('hard'),
      sum(eb.case().when('q.difficulty', 'is', null).then(1).else(0).end()).as('unrated'),
      eb.fn.countAll<number | string>().as('total'),
    ])
    .groupBy('r.topic')
    .orderBy('r.topic')
    .execute()
  const tags = await liveQuestions(db, {})
    .innerJoin('question_tags as qt', 'qt.question_id', 'q.id')
    .innerJoin('tags as t', 't.id', 'qt.tag_id')
    .select((eb) => ['t.name', eb.fn.countAll<number | string>().as('total')])
    .groupBy(['t.id', 't.name'])
    .orderBy('t.name')
    .execute()
  const sources = await liveQuestions(db, {})
    .select((eb) => ['q.source', eb.fn.countAll<number | string>().as('total')])
    .where('q.source', 'is not', null)
    .groupBy('q.source')
    .orderBy('q.source')
    .execute()
  return { topics, tags, sources }
}

const sum = (expression: Expression<number>) => sql<number | string | null>`sum(${expression})`
