import { sql, type Kysely, type SqlBool } from 'kysely'
import { precompile } from '../db/precompiled-query'
import type { DB, PassageRow } from '../db/schema'
import { inParts } from '../db/in-parts'
import { instituteOfNewRows } from '../db/request-scope'

export type PassageValues = Pick<
  PassageRow,
  | 'text_en'
  | 'text_ne'
  | 'maths'
  | 'image_svg'
  | 'image_picture'
  | 'image_width'
  | 'image_height'
  | 'image_caption_en'
  | 'image_caption_ne'
>

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

// Papers cached under the institute's old passages version are read again (question-papers.ts, decision 132). Each
// write below raises it in the writer's transaction; the row lock orders two institutes' admins writing at once.
async function raisePassagesVersion(db: Kysely<DB>) {
  await db
    .updateTable('institutes')
    .set((eb) => ({ passages_version: eb('passages_version', '+', 1) }))
    .where('id', '=', instituteOfNewRows())
    .execute()
}

export async function insertPassage(db: Kysely<DB>, values: PassageValues, now: number): Promise<number> {
  const row = await db
    .insertInto('passages')
    .values({ ...values, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  await raisePassagesVersion(db)
  return row.id
}

export async function updatePassage(db: Kysely<DB>, id: number, values: Partial<PassageValues>, now: number) {
  const result = await db
    .updateTable('passages')
    .set({ ...values, updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst()
  await raisePassagesVersion(db)
  return Number(result.numUpdatedRows) > 0
}

export async function deletePassage(db: Kysely<DB>, id: number) {
  await db.deleteFrom('passage_questions').where('passage_id', '=', id).execute()
  const result = await db.deleteFrom('passages').where('id', '=', id).executeTakeFirst()
  await raisePassagesVersion(db)
  return Number(result.numDeletedRows) > 0
}

export function findPassage(db: Kysely<DB>, id: number) {
  return db.selectFrom('passages').selectAll().where('id', '=', id).executeTakeFirst()
}

export function findPassages(db: Kysely<DB>, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([] as PassageRow[])
  return db
    .selectFrom('passages')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute()
}

function searched(db: Kysely<DB>, search: string | undefined) {
  return db.selectFrom('passages').$if(search !== undefined && search !== '', (query) => {
    const pattern = likePattern(search!)
    return query.where(
      (eb) =>
        sql<SqlBool>`(lower(${eb.ref('text_en')}) like ${pattern} escape '\\' or lower(${eb.ref('text_ne')}) like ${pattern} escape '\\')`,
    )
  })
}

export async function pagePassages(db: Kysely<DB>, search: string | undefined, page: number, pageSize: number) {
  const [count, rows] = await Promise.all([
    searched(db, search)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
    searched(db, search)
      .selectAll()
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
  ])
  return { count: Number(count.n), rows }
}

/** Each passage's live questions, in its order. */
export async function questionIdsOf(db: Kysely<DB>, passageIds: readonly number[]) {
  const byPassage = new Map<number, number[]>(passageIds.map((id) => [id, []]))
  if (passageIds.length === 0) return byPassage
  const rows = await db
    .selectFrom('passage_questions as pq')
    .innerJoin('questions as q', 'q.id', 'pq.question_id')
    .select(['pq.passage_id', 'pq.question_id'])
    .where('pq.passage_id', 'in', [...new Set(passageIds)])
    .where('q.deleted_at', 'is', null)
    .where('q.revision_id', 'is not', null)
    .orderBy('pq.passage_id')
    .orderBy('pq.position')
    .execute()
  for (const row of rows) byPassage.get(row.passage_id)?.push(row.question_id)
  return byPassage
}

export async function setPassageQuestions(db: Kysely<DB>, passageId: number, questionIds: readonly number[]) {
  await db.deleteFrom('passage_questions').where('passage_id', '=', passageId).execute()
  if (questionIds.length > 0)
    await db
      .insertInto('passage_questions')
      .values(
        questionIds.map((questionId, index) => ({
          passage_id: passageId,
          question_id: questionId,
          position: index + 1,
        })),
      )
      .execute()
  await raisePassagesVersion(db)
}

/** The passage each of `questionIds` belongs to (questions in none are absent). */
export async function passageOfQuestions(db: Kysely<DB>, questionIds: readonly number[]) {
  const byQuestion = new Map<number, number>()
  for (const part of inParts([...new Set(questionIds)])) {
    const rows = await db
      .selectFrom('passage_questions')
      .select(['question_id', 'passage_id'])
      .where('question_id', 'in', part)
      .execute()
    for (const row of rows) byQuestion.set(row.question_id, row.passage_id)
  }
  return byQuestion
}

/** The quizzes (not deleted) whose paper holds the passage. */
export function quizzesUsingPassage(db: Kysely<DB>, passageId: number) {
  return db
    .selectFrom('paper_items as i')
    .innerJoin('quizzes as z', 'z.id', 'i.quiz_id')
    .select(['z.id', 'z.title_en', 'z.title_ne'])
    .distinct()
    .where('i.passage_id', '=', passageId)
    .where('z.deleted_at', 'is', null)
    .orderBy('z.id')
    .execute()
}

/** Live bank questions among `ids` (not deleted, with a revision, not a national mock's copy). */
export async function liveBankQuestionIds(db: Kysely<DB>, ids: readonly number[]) {
  if (ids.length === 0) return new Set<number>()
  const rows = await db
    .selectFrom('questions')
    .select('id')
    .where('id', 'in', [...new Set(ids)])
    .where('deleted_at', 'is', null)
    .where('revision_id', 'is not', null)
    .where('national_mock_id', 'is', null)
    .execute()
  return new Set(rows.map((row) => row.id))
}

const selectVersion = precompile((db: Kysely<DB>, institute: number) =>
  db.selectFrom('institutes').select('passages_version').where('id', '=', institute),
)

/** What cached papers' passages are keyed by (0: the institute never had one); read where no attempt read carries it. */
export async function passagesVersion(db: Kysely<DB>): Promise<number> {
  return (await selectVersion(db, instituteOfNewRows())).rows[0]?.passages_version ?? 0
}

/** The passage (and place in it) of each revision's question, for shuffling a paper with its passages whole. */
export async function passagesOfRevisions(db: Kysely<DB>, revisionIds: readonly number[]) {
  const byRevision = new Map<number, { passageId: number; position: number }>()
  for (const part of inParts([...new Set(revisionIds)])) {
    const rows = await db
      .selectFrom('question_revisions as r')
      .innerJoin('passage_questions as pq', 'pq.question_id', 'r.question_id')
      .select(['r.id', 'pq.passage_id', 'pq.position'])
      .where('r.id', 'in', part)
      .execute()
    for (const row of rows) byRevision.set(row.id, { passageId: row.passage_id, position: row.position })
  }
  return byRevision
}
