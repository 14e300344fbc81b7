import type { Kysely, Migration } from 'kysely'

// docs/decisions/071: a draw may filter the questions' type; null draws either.
export const drawType = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('paper_items').addColumn('draw_type', 'text').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('paper_items').dropColumn('draw_type').execute()
  },
})
