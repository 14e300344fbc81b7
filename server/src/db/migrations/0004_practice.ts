import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

export const practice = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('first_attempt_scores')
      .addColumn('quiz_id', 'integer', (c) => c.notNull().references('quizzes.id'))
      .addColumn('score_hundredths', 'integer', (c) => c.notNull())
      .addColumn('learners', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('first_attempt_scores_pk', ['quiz_id', 'score_hundredths'])
      .execute()
    await sql`
      insert into first_attempt_scores (quiz_id, score_hundredths, learners)
      select quiz_id, score_hundredths, count(*) from attempts
      where attempt_number = 1 and status = 'finished'
      group by quiz_id, score_hundredths
    `.execute(db)

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
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('practice_cards').execute()
    await db.schema.dropTable('first_attempt_scores').execute()
  },
})
