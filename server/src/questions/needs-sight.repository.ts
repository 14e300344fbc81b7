import { sql, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely'
import type { DB, QuestionRevisionTable } from '../db/schema'

/** Of these revisions, those whose question is marked "Needs sight" now (decision 114). */
export async function needsSightRevisions(db: Kysely<DB>, revisionIds: readonly number[]): Promise<Set<number>> {
  if (revisionIds.length === 0) return new Set()
  const rows = await db
    .selectFrom('question_revisions as r')
    .innerJoin('questions as q', 'q.id', 'r.question_id')
    .select('r.id')
    .where('r.id', 'in', [...revisionIds])
    .where('q.needs_sight', '=', 1)
    .execute()
  return new Set(rows.map((row) => row.id))
}

/** Marks a bank question as needing sight, or not. */
export async function setNeedsSight(db: Kysely<DB>, questionId: number, needsSight: boolean) {
  await db
    .updateTable('questions')
    .set({ needs_sight: needsSight ? 1 : 0 })
    .where('id', '=', questionId)
    .execute()
}

export async function needsSightOf(db: Kysely<DB>, questionIds: readonly number[]): Promise<Set<number>> {
  if (questionIds.length === 0) return new Set()
  const rows = await db
    .selectFrom('questions')
    .select('id')
    .where('id', 'in', [...questionIds])
    .where('needs_sight', '=', 1)
    .execute()
  return new Set(rows.map((row) => row.id))
}

/**
 * A picture without a description (API.md "Blind learners"): the question's own image, or an option's, with no
 * caption in either language, so a screen reader has nothing to say for it. `r` is the current revision.
 */
export function undescribedPicture(eb: ExpressionBuilder<DB & { r: QuestionRevisionTable }, 'r'>) {
  const bare = (image: 'image_svg' | 'image_picture', table: 'r' | 'o') =>
    sql<SqlBool>`(${sql.ref(`${table}.${image}`)} is not null and ${sql.ref(`${table}.image_caption_en`)} = '' and ${sql.ref(`${table}.image_caption_ne`)} = '')`
  return eb.or([
    bare('image_svg', 'r'),
    bare('image_picture', 'r'),
    eb.exists(
      eb
        .selectFrom('question_options as o')
        .select('o.id')
        .whereRef('o.revision_id', '=', 'r.id')
        .where((inner) => inner.or([bare('image_svg', 'o'), bare('image_picture', 'o')])),
    ),
  ])
}

/** Of these current revisions, those with a picture without a description. */
export async function undescribedRevisions(db: Kysely<DB>, revisionIds: readonly number[]): Promise<Set<number>> {
  if (revisionIds.length === 0) return new Set()
  const rows = await db
    .selectFrom('question_revisions as r')
    .select('r.id')
    .where('r.id', 'in', [...revisionIds])
    .where((eb) => undescribedPicture(eb as never))
    .execute()
  return new Set(rows.map((row) => row.id))
}

/** `needs_sight` and `no_description` of bank questions, by question and current revision. */
export async function blindLearnerFlags(
  db: Kysely<DB>,
  questionIds: readonly number[],
  revisionIds: readonly number[],
) {
  const [sight, undescribed] = await Promise.all([needsSightOf(db, questionIds), undescribedRevisions(db, revisionIds)])
  return {
    of: (questionId: number, revisionId: number) => ({
      needs_sight: sight.has(questionId),
      no_description: undescribed.has(revisionId),
    }),
  }
}
