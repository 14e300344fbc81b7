import { sql, type Kysely } from 'kysely'
import { isPostgres } from '../db/database'
import { precompile } from '../db/precompiled-query'
import type { DB } from '../db/schema'

// Compiled once: Kysely rebuilding an `in` list of a hundred ids per submit cost more than the read.
const selectAnswerKeys = precompile((db: Kysely<DB>, revisionIdsJson: string) =>
  db
    .selectFrom(
      (isPostgres(db)
        ? sql`jsonb_array_elements_text(cast(${revisionIdsJson} as jsonb))`
        : sql`json_each(${revisionIdsJson})`
      ).as('j'),
    )
    .innerJoin('question_revisions as r', (join) =>
      join.on(isPostgres(db) ? sql<boolean>`r.id = cast(j.value as integer)` : sql<boolean>`r.id = j.value`),
    )
    .innerJoin('key_versions as k', (join) =>
      join.onRef('k.revision_id', '=', 'r.id').onRef('k.version', '=', 'r.key_version'),
    )
    .select(['r.id as revision_id', 'k.id', 'k.version', 'k.action', 'k.correct_option_ids', 'k.numeric_answer'])
    .select('k.drop_policy')
    .select(['k.note', 'k.created_at'])
    .where('r.key_version', '>', 0),
)

export async function listDecidedKeys(db: Kysely<DB>, revisionIds: readonly number[]) {
  const { rows } = await selectAnswerKeys(db, JSON.stringify(revisionIds))
  return rows
}

// NOWAIT: throws lock_not_available if a row is locked for update.
// PostgreSQL only (questions/key-locks.ts); the ids one array parameter, so the statement is parsed once a connection
// rather than at every submit with a hundred parameters.
const selectRevisionsForShareNoWait = precompile((db: Kysely<DB>, revisionIds: readonly number[]) =>
  db
    .selectFrom('question_revisions')
    .select(['id', 'key_version'])
    .where('id', '=', sql<number>`any(cast(${revisionIds} as integer[]))`)
    .forShare()
    .noWait(),
)

export async function shareLockRevisionsNoWait(trx: Kysely<DB>, revisionIds: readonly number[]) {
  const { rows } = await selectRevisionsForShareNoWait(trx, revisionIds)
  return rows
}

export async function waitForRevisionLocks(db: Kysely<DB>, revisionIds: readonly number[]) {
  await db.selectFrom('question_revisions').select('id').where('id', 'in', revisionIds).forShare().execute()
}
