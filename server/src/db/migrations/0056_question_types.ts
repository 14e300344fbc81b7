import { type Kysely, type Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// docs/decisions/107: multiple and numeric questions. A multiple question keeps its right options as a choice
// question does (`options.is_correct`, several of them); a numeric question has no options and keeps its accepted
// answer as JSON `{value, tolerance}` or `{min, max}` and its `decimals` (null: any). A section says how it marks
// them: the multiple scheme, partial marks (hundredths) and whether a wrong number loses marks.
export const questionTypes = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('question_revisions').addColumn('numeric_answer', 'text').execute()
    await db.schema.alterTable('question_revisions').addColumn('decimals', 'integer').execute()
    await db.schema
      .alterTable('paper_sections')
      .addColumn('multiple_scheme', 'text', (c) => c.notNull().defaultTo('all_or_nothing'))
      .execute()
    await db.schema
      .alterTable('paper_sections')
      .addColumn('partial_marks', 'integer', (c) => c.notNull().defaultTo(100))
      .execute()
    await db.schema
      .alterTable('paper_sections')
      .addColumn('numeric_negative', 'integer', (c) => c.notNull().defaultTo(1))
      .execute()
  },
  async down(db: Kysely<unknown>) {
    for (const column of ['numeric_negative', 'partial_marks', 'multiple_scheme'])
      await db.schema.alterTable('paper_sections').dropColumn(column).execute()
    for (const column of ['decimals', 'numeric_answer'])
      await db.schema.alterTable('question_revisions').dropColumn(column).execute()
  },
})
