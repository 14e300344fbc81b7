import { sql, type Kysely, type Migration } from 'kysely'
import { renderBilingual, type StoredMaths } from '../../maths/rich-text'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
// docs/decisions/027: a question's texts may hold TeX, rendered once when written and stored beside the source in
// `maths` (JSON, null without maths). Texts written before held no maths on purpose, but some were pasted from
// elsewhere with TeX in them ("$\frac{1}{2}$"): every old text with a `$` is rendered here, field by field. A field
// whose `$` do not pair up or whose TeX does not parse (a price, "$5") was never maths: it is kept as it is, without
// html, and shown exactly as before. Its source is not changed, so the admin sees it as written; saving the question
// again asks for `\$`.

type Fields = Record<'text' | 'hint' | 'caption', [en: string | null, ne: string | null]>

function renderedFields(fields: Partial<Fields>): string | null {
  const stored: StoredMaths = {}
  for (const [field, [en, ne]] of Object.entries(fields) as [keyof Fields, Fields[keyof Fields]][]) {
    if (en === null) continue
    try {
      const rendered = renderBilingual({ en, ne: ne ?? '' })
      if (rendered) stored[field] = rendered
    } catch {
      // Not maths (see above): this field keeps no html.
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
