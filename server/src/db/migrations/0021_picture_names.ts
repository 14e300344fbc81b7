import type { Kysely, Migration } from 'kysely'

// Issue 54: pictures named by a keyed hash; the server, which has the key, renames old rows at its start.
export const pictureNames = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('pictures')
      .addColumn('keyed', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
  },
})
