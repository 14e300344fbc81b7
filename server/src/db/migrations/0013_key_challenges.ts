import { type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'
import { columnTypes } from './column-types'

// docs/decisions/036: answer-key challenges (flags), key versions of a revision, and the regrades they cause.
export const keyChallenges = (dialect: Dialect): Migration => {
  const { id, pk } = columnTypes(dialect)

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('quizzes')
        .addColumn('challenge_days', 'integer', (c) => c.notNull().defaultTo(7))
        .execute()
      await db.schema
        .alterTable('question_revisions')
        .addColumn('key_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()

      await db.schema
        .createTable('key_versions')
        .addColumn('id', id, pk)
        .addColumn('revision_id', 'integer', (c) => c.notNull().references('question_revisions.id'))
        .addColumn('question_id', 'integer', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('correct_option_ids', 'text', (c) => c.notNull())
        .addColumn('drop_policy', 'text')
        .addColumn('note', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'integer')
        .addColumn('actor_username', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('key_versions_revision_version', ['revision_id', 'version'])
        .execute()

      await db.schema
        .createTable('flags')
        .addColumn('id', id, pk)
        .addColumn('attempt_id', 'integer', (c) => c.notNull().references('attempts.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('question_id', 'integer', (c) => c.notNull())
        .addColumn('revision_id', 'integer', (c) => c.notNull().references('question_revisions.id'))
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('proposed_option_id', 'integer')
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('decided_at', 'bigint')
        .addColumn('decision', 'integer', (c) => c.references('key_versions.id'))
        .addUniqueConstraint('flags_user_revision', ['user_id', 'revision_id'])
        .execute()
      await db.schema.createIndex('flags_revision_status').on('flags').columns(['revision_id', 'status']).execute()
      await db.schema.createIndex('flags_status_created').on('flags').columns(['status', 'created_at']).execute()

      await db.schema
        .createTable('regrades')
        .addColumn('id', id, pk)
        .addColumn('attempt_id', 'integer', (c) => c.notNull().references('attempts.id').onDelete('cascade'))
        .addColumn('question_id', 'integer', (c) => c.notNull())
        .addColumn('revision_id', 'integer', (c) => c.notNull())
        .addColumn('old_marks', 'integer', (c) => c.notNull())
        .addColumn('new_marks', 'integer', (c) => c.notNull())
        .addColumn('old_outcome', 'text', (c) => c.notNull())
        .addColumn('new_outcome', 'text', (c) => c.notNull())
        .addColumn('key_version_id', 'integer', (c) => c.notNull().references('key_versions.id'))
        .addColumn('actor_id', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('regrades_attempt').on('regrades').columns(['attempt_id', 'question_id']).execute()
      await db.schema
        .createIndex('regrades_key_version')
        .on('regrades')
        .columns(['key_version_id', 'attempt_id'])
        .execute()
    },
  }
}
