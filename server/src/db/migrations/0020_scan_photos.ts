import type { Kysely, Migration } from 'kysely'
import type { Dialect } from '../database'
import { columnTypes } from './column-types'

// A scan's earlier photos, replaced by a retake, kept for the audit trail (docs/decisions/061).
export const scanPhotos = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    const { id, blob } = columnTypes(dialect)
    await db.schema
      .createTable('scan_photos')
      .addColumn('id', id, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('scan_id', 'integer', (c) => c.notNull().references('sitting_scans.id').onDelete('cascade'))
      .addColumn('photo', blob, (c) => c.notNull())
      .addColumn('photo_type', 'text', (c) => c.notNull())
      .addColumn('scanned_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('replaced_at', 'bigint', (c) => c.notNull())
      .addColumn('replaced_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .execute()
    await db.schema.createIndex('scan_photos_scan').on('scan_photos').column('scan_id').execute()
  },
})
