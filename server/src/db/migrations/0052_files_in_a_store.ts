import { type Kysely, type Migration } from 'kysely'

// docs/decisions/105: files live in a file store, the rows keep their keys, sizes and hashes. A row whose key is null
// still holds its bytes in the old column and is read from there until `npm run files:migrate` moves it; a moved
// row's byte column holds zero bytes, as SQLite cannot drop NOT NULL without rebuilding a table of every page.
const columns: Record<string, string[][]> = {
  page_images: [
    ['data_key', 'text'],
    ['data_size', 'integer'],
    ['phone_key', 'text'],
    ['phone_size', 'integer'],
  ],
  sitting_scans: [
    ['photo_key', 'text'],
    ['photo_size', 'integer'],
    ['photo_hash', 'text'],
  ],
  scan_photos: [
    ['photo_key', 'text'],
    ['photo_size', 'integer'],
    ['photo_hash', 'text'],
  ],
  pictures: [
    ['data_key', 'text'],
    ['data_size', 'integer'],
  ],
  profile_pictures: [
    ['data_key', 'text'],
    ['data_size', 'integer'],
    ['data_hash', 'text'],
  ],
}

export const filesInAStore = (): Migration => ({
  async up(db: Kysely<unknown>) {
    for (const [table, added] of Object.entries(columns))
      for (const [name, type] of added)
        await db.schema
          .alterTable(table)
          .addColumn(name!, type as 'text' | 'integer')
          .execute()
  },
  async down(db: Kysely<unknown>) {
    for (const [table, added] of Object.entries(columns))
      for (const [name] of added) await db.schema.alterTable(table).dropColumn(name!).execute()
  },
})
