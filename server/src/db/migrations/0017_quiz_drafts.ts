import { sql, type Kysely, type Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// docs/decisions/048: a quiz is a draft (invisible to learners) until an admin publishes it. Every quiz made before
// drafts was live at once, so the default keeps each of them published; the check keeps any other word out, so a
// learner query that asks for 'published' can never miss a quiz spelt differently.
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
