import type { Kysely, Migration } from 'kysely'
import type { Dialect } from '../database'
import { columnTypes } from './column-types'

// API.md "Pictures in questions": raster pictures stored once per content, in the database.
export const pictures = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const { blob } = columnTypes(dialect)
    await db.schema
      .createTable('pictures')
      .addColumn('hash', 'text', (c) => c.primaryKey())
      .addColumn('data', blob, (c) => c.notNull())
      .addColumn('width', 'integer', (c) => c.notNull())
      .addColumn('height', 'integer', (c) => c.notNull())
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
