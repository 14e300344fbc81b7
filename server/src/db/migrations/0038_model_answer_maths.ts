import { sql, type Kysely, type Migration } from 'kysely'
import { renderBilingual, type StoredMaths } from '../../maths/rich-text'

// Issue 73 (docs/decisions/093): a written question's model answer is rendered with the revision's other texts into
// its `maths` JSON (key `model_answer`). Revisions are immutable and payloads never render, so model answers written
// before are rendered here, once. Unlike 0009 this calls the application's renderer rather than a frozen copy: the
// point is to store what a save today would store, tables included, and a copy of the table and maths renderer here
// would be several hundred lines to keep. A model answer whose `$` do not pair up, whose TeX does not parse or whose
// table is malformed was never written as maths: it keeps no html and is shown as before (as 0009 did); saving the
// question again names the fault.
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
