import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// API.md "Institutions": extra time per learner, and an index for every report of a quiz's finished attempts.
export const institutions = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('extra_time_percent', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`extra_time_percent between 0 and 300`),
      )
      .execute()
    await db.schema
      .createIndex('attempts_quiz_status')
      .on('attempts')
      .columns(['quiz_id', 'status', 'score_hundredths'])
      .execute()
  },
})
