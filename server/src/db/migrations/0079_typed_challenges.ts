import type { Kysely, Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 77/78, challenges of every type (docs/decisions/128). A flag on a multiple question proposes a right set and
// one on a numeric question a value; a key decision on a numeric question decides its value or range. Nullable:
// every flag and key version written before concerns a choice question.
export const typedChallenges = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('flags').addColumn('proposed_option_ids', 'text').execute()
    await db.schema.alterTable('flags').addColumn('proposed_value', 'text').execute()
    await db.schema.alterTable('key_versions').addColumn('numeric_answer', 'text').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('key_versions').dropColumn('numeric_answer').execute()
    await db.schema.alterTable('flags').dropColumn('proposed_value').execute()
    await db.schema.alterTable('flags').dropColumn('proposed_option_ids').execute()
  },
})
