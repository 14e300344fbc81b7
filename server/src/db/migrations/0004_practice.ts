import type { Kysely, Migration } from 'kysely'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
export const practice = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    // Rank and percentile count other learners' first finished attempts above and below a score (API.md
    // "Analysis and practice"). A learner's first finished attempt is their attempt number 1 (one attempt is in
    // progress at a time, so the first started is the first finished): this index holds exactly what those
    // counts and the average read, so they range over one quiz's entries and never touch the table.
    await db.schema
      .createIndex('attempts_quiz_scores')
      .on('attempts')
      .columns(['quiz_id', 'attempt_number', 'status', 'score_hundredths', 'user_id'])
      .execute()

    // The mistake deck: one card per learner and question (the stable question id, so an edit shows the new version).
    await db.schema
      .createTable('practice_cards')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
      .addColumn('box', 'integer', (c) => c.notNull())
      .addColumn('due_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('practice_cards_pk', ['user_id', 'question_id'])
      .execute()
    await db.schema.createIndex('practice_cards_due').on('practice_cards').columns(['user_id', 'due_at']).execute()
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('practice_cards').execute()
    await db.schema.dropIndex('attempts_quiz_scores').execute()
  },
})
