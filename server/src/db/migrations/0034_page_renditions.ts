import { type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 57 (docs/decisions/078): a kept page's phone rendition (WebP, 720 px wide), beside the page in page_images.
// Null for pages kept before it: the first request of the rendition makes and stores it.
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
