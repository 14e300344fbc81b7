import type { Kysely } from 'kysely'
import { precompile } from '../db/precompiled-query'
import type { DB } from '../db/schema'

const selectVersion = precompile((db: Kysely<DB>, quizId: number) =>
  db.selectFrom('quizzes').select('question_set_version').where('id', '=', quizId),
)

// The version and the list in one statement, so they are of one snapshot (on PostgreSQL two statements of one
// transaction may see different commits).
const selectVersionWithRevisionIds = precompile((db: Kysely<DB>, quizId: number) =>
  db
    .selectFrom('quizzes as z')
    .leftJoin('questions as q', (join) =>
      join.onRef('q.quiz_id', '=', 'z.id').on('q.deleted_at', 'is', null).on('q.revision_id', 'is not', null),
    )
    .select(['z.question_set_version', 'q.revision_id'])
    .where('z.id', '=', quizId)
    .orderBy('q.position')
    .orderBy('q.id'),
)

/**
 * The current revision ids of a quiz's live questions, in order: what a new attempt's paper is drawn from. Each
 * process keeps the list per quiz with the quiz's question_set_version (raised by triggers on every change to its
 * questions, migration 0007), and reads only the version while it holds: an exam's 1,000 starts read one small row
 * each instead of 100 question rows each. The version is read in the caller's transaction, so a change committed
 * by any process is seen as it would be by reading the list.
 */
export function createCurrentQuestions() {
  const lists = new Map<number, { version: number; revisionIds: number[] }>()

  return async function currentRevisionIds(trx: Kysely<DB>, quizId: number): Promise<number[]> {
    const cached = lists.get(quizId)
    if (cached) {
      const version = (await selectVersion(trx, quizId)).rows[0]?.question_set_version
      if (version === cached.version) return cached.revisionIds
    }
    const { rows } = await selectVersionWithRevisionIds(trx, quizId)
    if (rows.length === 0) return []
    const revisionIds = rows.flatMap((row) => (row.revision_id === null ? [] : [row.revision_id]))
    lists.set(quizId, { version: rows[0]!.question_set_version, revisionIds })
    return revisionIds
  }
}
