import type { Kysely, Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 56 (docs/decisions/071): a draw may filter the questions' type (`choice` or `written`); null draws either.
// Papers are replaced by deleting and inserting their items, so the figures' triggers of 0010 see every change.
export const drawType = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('paper_items').addColumn('draw_type', 'text').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('paper_items').dropColumn('draw_type').execute()
  },
})
