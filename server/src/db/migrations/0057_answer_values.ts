import { type Kysely, type Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// docs/decisions/107: an answer that is not one option id. `value` holds, as JSON, a multiple question's option ids
// (a list) or a numeric question's typed number (a string, in its shortest form); `option_id` stays a choice
// question's answer, so every reader of choice answers is unchanged.
export const answerValues = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('attempt_answers').addColumn('value', 'text').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('attempt_answers').dropColumn('value').execute()
  },
})
