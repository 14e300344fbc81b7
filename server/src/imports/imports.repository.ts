import { sql, type Kysely } from 'kysely'
import { editorIsCorrect } from '../questions/answer-keys'
import type { DB } from '../db/schema'
import { findAnswerKeys } from '../questions/answer-keys'
import { contentHash } from '../questions/content-hash'
import { findRevisions } from '../questions/question-revisions.repository'
import type { HashedRow } from './rows'

const CHUNK = 500

export async function insertDryRun(
  db: Kysely<DB>,
  values: { createdBy: number; format: string; rowsJson: string; now: number; expiresAt: number },
) {
  const row = await db
    .insertInto('imports')
    .values({
      created_by: values.createdBy,
      format: values.format,
      rows: values.rowsJson,
      created_at: values.now,
      expires_at: values.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function findDryRun(db: Kysely<DB>, id: number, now: number) {
  const row = await db
    .selectFrom('imports')
    .selectAll()
    .where('id', '=', id)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return row ? { ...row, rows: JSON.parse(row.rows) as HashedRow[] } : undefined
}

export async function deleteExpiredDryRuns(db: Kysely<DB>, now: number) {
  await db.deleteFrom('imports').where('expires_at', '<=', now).execute()
}

export async function bankQuestionsByHash(db: Kysely<DB>, hashes: readonly string[]) {
  const found = new Map<string, number>()
  const unique = [...new Set(hashes)]
  for (let at = 0; at < unique.length; at += CHUNK) {
    const rows = await db
      .selectFrom('question_revisions as r')
      .innerJoin('questions as q', 'q.revision_id', 'r.id')
      .select(['r.content_hash', 'q.id'])
      .where('q.deleted_at', 'is', null)
      .where('r.content_hash', 'in', unique.slice(at, at + CHUNK))
      .orderBy('q.id')
      .execute()
    for (const row of rows) if (row.content_hash && !found.has(row.content_hash)) found.set(row.content_hash, row.id)
  }
  // A decided key makes its question the one with that key (the export writes it so): its hash is worked out here,
  // from every decision (a handful per exam).
  const decided = await db
    .selectFrom('question_revisions as r')
    .innerJoin('questions as q', 'q.revision_id', 'r.id')
    .select(['r.id as revision_id', 'q.id'])
    .where('q.deleted_at', 'is', null)
    .where('r.key_version', '>', 0)
    .orderBy('q.id')
    .execute()
  if (decided.length === 0) return found
  const wanted = new Set(unique)
  const [revisions, keys] = await Promise.all([
    findRevisions(
      db,
      decided.map((row) => row.revision_id),
    ),
    findAnswerKeys(
      db,
      decided.map((row) => row.revision_id),
    ),
  ])
  for (const { revision_id, id } of decided) {
    const revision = revisions.get(revision_id)!
    const key = keys.get(revision_id)
    const hash = contentHash({
      text: { en: revision.text_en, ne: revision.text_ne },
      options: revision.options.map((option) => ({
        text: { en: option.text_en, ne: option.text_ne },
        is_correct: editorIsCorrect(option.id, option.is_correct === 1, key),
      })),
    })
    if (wanted.has(hash) && !found.has(hash)) found.set(hash, id)
  }
  return found
}

// Commits take turns on PostgreSQL (an advisory lock), so two cannot both find a question missing and write it.
export async function lockImportCommits(db: Kysely<DB>, dialect: 'sqlite' | 'postgres') {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('imports.commit'))`.execute(db)
}

export function findLiveQuizFigures(db: Kysely<DB>, quizId: number) {
  return db
    .selectFrom('quizzes')
    .select(['id', 'title_en', 'question_count'])
    .where('id', '=', quizId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
}

export async function currentRevisionIds(db: Kysely<DB>, questionIds: readonly number[]) {
  const found = new Map<number, number>()
  if (questionIds.length === 0) return found
  const rows = await db.selectFrom('questions').select(['id', 'revision_id']).where('id', 'in', questionIds).execute()
  for (const row of rows) if (row.revision_id !== null) found.set(row.id, row.revision_id)
  return found
}

/** Marks the quiz's fixed items of passage questions as the passage's (`passageOf`: question id -> passage id). */
export async function setPaperPassages(db: Kysely<DB>, quizId: number, passageOf: ReadonlyMap<number, number>) {
  const byPassage = new Map<number, number[]>()
  for (const [questionId, passageId] of passageOf)
    byPassage.set(passageId, [...(byPassage.get(passageId) ?? []), questionId])
  for (const [passageId, questionIds] of byPassage)
    await db
      .updateTable('paper_items')
      .set({ passage_id: passageId })
      .where('quiz_id', '=', quizId)
      .where('question_id', 'in', questionIds)
      .execute()
}
