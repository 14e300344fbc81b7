import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/schema'
import type { HashedRow } from './rows'

// Dry runs (table `imports`, migration 0011) and the bank's content hashes (question_revisions.content_hash).

const CHUNK = 500

export async function insertDryRun(
  db: Kysely<DB>,
  values: { createdBy: number; format: string; rows: HashedRow[]; now: number; expiresAt: number },
) {
  const row = await db
    .insertInto('imports')
    .values({
      created_by: values.createdBy,
      format: values.format,
      rows: JSON.stringify(values.rows),
      created_at: values.now,
      expires_at: values.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** A dry run that has not expired. */
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

/** The live bank question holding each of these content hashes (the oldest when several do). */
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
  return found
}

/**
 * Commits of imports take turns on PostgreSQL (a transaction-scoped advisory lock), so two commits of files that
 * share questions cannot both find a question missing and both write it. SQLite's writer is one at a time anyway.
 */
export async function lockImportCommits(db: Kysely<DB>, dialect: 'sqlite' | 'postgres') {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('imports.commit'))`.execute(db)
}

/** A live quiz's title and question count, or undefined. */
export function findLiveQuizFigures(db: Kysely<DB>, quizId: number) {
  return db
    .selectFrom('quizzes')
    .select(['id', 'title_en', 'question_count'])
    .where('id', '=', quizId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
}

/** Each question's current revision id. */
export async function currentRevisionIds(db: Kysely<DB>, questionIds: readonly number[]) {
  const found = new Map<number, number>()
  if (questionIds.length === 0) return found
  const rows = await db.selectFrom('questions').select(['id', 'revision_id']).where('id', 'in', questionIds).execute()
  for (const row of rows) if (row.revision_id !== null) found.set(row.id, row.revision_id)
  return found
}
