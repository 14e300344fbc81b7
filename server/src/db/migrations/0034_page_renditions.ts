import { type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// docs/decisions/078: a page's phone rendition; null for older pages, made at its first request.
export const pageRenditions = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('page_images')
      .addColumn('phone_data', dialect === 'postgres' ? 'bytea' : 'blob')
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('page_images').dropColumn('phone_data').execute()
  },
})
