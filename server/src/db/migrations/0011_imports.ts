import { createHash } from 'node:crypto'
import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'
import { columnTypes } from './column-types'

// docs/decisions/032: kept dry runs of imports, and each revision's content hash, indexed, for duplicates.

const BATCH = 500

// A frozen copy of questions/content-hash.ts: the hashes must be those the application wrote that day.
const normaliseForHash = (text: string) => text.normalize('NFC').replace(/\s+/gu, ' ').trim()

function contentHash(content: {
  text: { en: string; ne: string }
  options: readonly { text: { en: string; ne: string }; is_correct: boolean }[]
}): string {
  const options = content.options
    .map((option) => [normaliseForHash(option.text.en), normaliseForHash(option.text.ne), option.is_correct ? 1 : 0])
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))
  const key = JSON.stringify([normaliseForHash(content.text.en), normaliseForHash(content.text.ne), options])
  return createHash('sha256').update(key).digest('hex')
}

export const imports = (dialect: Dialect): Migration => {
  const { id, pk } = columnTypes(dialect)

  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('question_revisions').addColumn('content_hash', 'text').execute()

      let after = 0
      for (;;) {
        const revisions = (
          await sql<{ id: number; text_en: string; text_ne: string }>`
            select id, text_en, text_ne from question_revisions where id > ${after} order by id limit ${BATCH}`.execute(
            db,
          )
        ).rows
        if (revisions.length === 0) break
        after = Number(revisions.at(-1)!.id)
        const ids = revisions.map((revision) => Number(revision.id))
        const options = (
          await sql<{ revision_id: number; text_en: string; text_ne: string; is_correct: number | boolean }>`
            select revision_id, text_en, text_ne, is_correct from question_options
            where revision_id in (${sql.join(ids)}) order by revision_id, position`.execute(db)
        ).rows
        const optionsOf = new Map<number, { text: { en: string; ne: string }; is_correct: boolean }[]>()
        for (const option of options) {
          const list = optionsOf.get(Number(option.revision_id)) ?? []
          list.push({
            text: { en: option.text_en, ne: option.text_ne ?? '' },
            is_correct: Number(option.is_correct) === 1,
          })
          optionsOf.set(Number(option.revision_id), list)
        }
        for (const revision of revisions) {
          const hash = contentHash({
            text: { en: revision.text_en, ne: revision.text_ne ?? '' },
            options: optionsOf.get(Number(revision.id)) ?? [],
          })
          await sql`update question_revisions set content_hash = ${hash} where id = ${revision.id}`.execute(db)
        }
      }
      await db.schema
        .createIndex('question_revisions_content_hash')
        .on('question_revisions')
        .column('content_hash')
        .execute()

      await db.schema
        .createTable('imports')
        .addColumn('id', id, pk)
        .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('rows', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('imports_expires').on('imports').column('expires_at').execute()
    },
  }
}
