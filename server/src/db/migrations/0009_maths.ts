import { sql, type Kysely, type Migration } from 'kysely'
import { renderBilingual, type StoredMaths } from '../../maths/rich-text'
import type { Dialect } from '../database'

// docs/decisions/027: old texts holding TeX are rendered into `maths` with today's renderer, as 0038 does; a field
// that does not render (a price, "$5") was never maths and keeps no html.

type Fields = Record<'text' | 'hint' | 'caption', [en: string | null, ne: string | null]>

function renderedFields(fields: Partial<Fields>): string | null {
  const stored: StoredMaths = {}
  for (const [field, [en, ne]] of Object.entries(fields) as [keyof Fields, Fields[keyof Fields]][]) {
    if (en === null) continue
    try {
      const rendered = renderBilingual({ en, ne: ne ?? '' })
      if (rendered) stored[field] = rendered
    } catch {
      continue
    }
  }
  return Object.keys(stored).length === 0 ? null : JSON.stringify(stored)
}

export const maths = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('question_revisions').addColumn('maths', 'text').execute()
    await db.schema.alterTable('question_options').addColumn('maths', 'text').execute()

    const revisions = (
      await sql<{
        id: number
        text_en: string
        text_ne: string
        hint_en: string | null
        hint_ne: string
        image_svg: string | null
        image_caption_en: string
        image_caption_ne: string
      }>`
      select id, text_en, text_ne, hint_en, hint_ne, image_svg, image_caption_en, image_caption_ne
      from question_revisions
      where text_en like '%$%' or text_ne like '%$%' or hint_en like '%$%' or hint_ne like '%$%'
        or image_caption_en like '%$%' or image_caption_ne like '%$%'`.execute(db)
    ).rows
    for (const row of revisions) {
      const stored = renderedFields({
        text: [row.text_en, row.text_ne],
        hint: [row.hint_en, row.hint_ne],
        caption: row.image_svg === null ? [null, null] : [row.image_caption_en, row.image_caption_ne],
      })
      if (stored) await sql`update question_revisions set maths = ${stored} where id = ${row.id}`.execute(db)
    }

    const options = (
      await sql<{
        id: number
        text_en: string
        text_ne: string
        image_svg: string | null
        image_caption_en: string
        image_caption_ne: string
      }>`
      select id, text_en, text_ne, image_svg, image_caption_en, image_caption_ne from question_options
      where text_en like '%$%' or text_ne like '%$%' or image_caption_en like '%$%' or image_caption_ne like '%$%'`.execute(
        db,
      )
    ).rows
    for (const row of options) {
      const stored = renderedFields({
        text: [row.text_en, row.text_ne],
        caption: row.image_svg === null ? [null, null] : [row.image_caption_en, row.image_caption_ne],
      })
      if (stored) await sql`update question_options set maths = ${stored} where id = ${row.id}`.execute(db)
    }
  },
})
