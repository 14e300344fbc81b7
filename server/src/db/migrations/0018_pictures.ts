import type { Kysely, Migration } from 'kysely'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
// API.md "Pictures in questions": raster pictures stored once per content (the hash of the stored WebP is the key),
// in the database so that every process and machine serves them; a question's or option's image names one by hash,
// with its size beside it so that payloads need no join.
export const pictures = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const blob = dialect === 'postgres' ? 'bytea' : 'blob'
    await db.schema
      .createTable('pictures')
      .addColumn('hash', 'text', (c) => c.primaryKey())
      .addColumn('data', blob, (c) => c.notNull())
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
      // The picture's decoded pixels, hashed: a picture sent again after a lossless round trip (the bank's export
      // embeds PNG) is found by it and kept as it was, not encoded a second time.
      .addColumn('pixels_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('pictures_pixels_hash').on('pictures').column('pixels_hash').execute()
    for (const table of ['question_revisions', 'question_options']) {
      await db.schema.alterTable(table).addColumn('image_picture', 'text').execute()
      await db.schema.alterTable(table).addColumn('image_width', 'integer').execute()
      await db.schema.alterTable(table).addColumn('image_height', 'integer').execute()
      await db.schema.createIndex(`${table}_image_picture`).on(table).column('image_picture').execute()
    }
  },
})
