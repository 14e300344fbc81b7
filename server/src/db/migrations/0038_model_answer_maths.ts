import { sql, type Kysely, type Migration } from 'kysely'
import { renderBilingual, type StoredMaths } from '../../maths/rich-text'

// docs/decisions/093: model answers rendered into `maths` with today's renderer; one that fails keeps no html.
export const modelAnswerMaths = (): Migration => ({
  async up(db: Kysely<unknown>) {
    const rows = (
      await sql<{ id: number; maths: string | null; model_answer_en: string; model_answer_ne: string | null }>`
      select id, maths, model_answer_en, model_answer_ne from question_revisions
      where type = 'written' and model_answer_en is not null
        and (model_answer_en like '%$%' or model_answer_ne like '%$%'
          or model_answer_en like '%|%' or model_answer_ne like '%|%')`.execute(db)
    ).rows
    for (const row of rows) {
      let rendered
      try {
        rendered = renderBilingual({ en: row.model_answer_en, ne: row.model_answer_ne ?? '' })
      } catch {
        continue
      }
      if (!rendered) continue
      const stored: StoredMaths = {
        ...(row.maths ? (JSON.parse(row.maths) as StoredMaths) : {}),
        model_answer: rendered,
      }
      await sql`update question_revisions set maths = ${JSON.stringify(stored)} where id = ${row.id}`.execute(db)
    }
  },
})
