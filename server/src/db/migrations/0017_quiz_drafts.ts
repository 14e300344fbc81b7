import { sql, type Kysely, type Migration } from 'kysely'

// docs/decisions/048: drafts; every older quiz stays published, and a check keeps any other word out.
export const quizDrafts = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('quizzes')
      .addColumn('status', 'text', (c) =>
        c
          .notNull()
          .defaultTo('published')
          .check(sql`status in ('draft', 'published')`),
      )
      .execute()
  },
})
