import type { Kysely, Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 54: a picture's address was the plain SHA-256 of its bytes, so anyone could test whether the bank holds a
// figure. It is now keyed with the server's secret, which a migration does not have: rows named the old way keep
// `keyed` 0 and the server renames them (and what names them) at its start (pictures/picture-names.ts).
export const pictureNames = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('pictures')
      .addColumn('keyed', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
  },
})
