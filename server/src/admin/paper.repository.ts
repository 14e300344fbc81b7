import type { Insertable, Kysely } from 'kysely'
import { inParts } from '../db/in-parts'
import type { DB, PaperItemTable, PaperSectionTable } from '../db/schema'

export async function findLiveQuestionIds(db: Kysely<DB>, questionIds: readonly number[]): Promise<Set<number>> {
  const live = new Set<number>()
  for (const part of inParts(questionIds)) {
    const rows = await db
      .selectFrom('questions')
      .select('id')
      .where('id', 'in', part)
      .where('deleted_at', 'is', null)
      .where('revision_id', 'is not', null)
      .execute()
    for (const row of rows) live.add(row.id)
  }
  return live
}

export type PaperSectionValues = Omit<Insertable<PaperSectionTable>, 'quiz_id' | 'position'>
export type PaperItemValues = Omit<Insertable<PaperItemTable>, 'quiz_id' | 'section_id' | 'position'>

// A new paper is drawn again when frozen; the triggers recount the quiz's figures.
export async function replacePaper(
  db: Kysely<DB>,
  quizId: number,
  sections: readonly { section: PaperSectionValues; items: readonly PaperItemValues[] }[],
) {
  await db.deleteFrom('paper_items').where('quiz_id', '=', quizId).execute()
  await db.deleteFrom('paper_sections').where('quiz_id', '=', quizId).execute()
  for (const [s, { section, items }] of sections.entries()) {
    const row = await db
      .insertInto('paper_sections')
      .values({ ...section, quiz_id: quizId, position: s + 1 })
      .returning('id')
      .executeTakeFirstOrThrow()
    if (items.length === 0) continue
    await db
      .insertInto('paper_items')
      .values(items.map((item, i) => ({ ...item, quiz_id: quizId, section_id: row.id, position: i + 1 })))
      .execute()
  }
  await db.updateTable('quizzes').set({ frozen_draw: null }).where('id', '=', quizId).execute()
}

export async function listQuestionsWithCurrentText(db: Kysely<DB>, questionIds: readonly number[]) {
  const rows = []
  for (const part of inParts(questionIds)) {
    rows.push(
      ...(await db
        .selectFrom('questions as q')
        .innerJoin('question_revisions as r', 'r.id', 'q.revision_id')
        .select(['q.id', 'q.deleted_at', 'r.text_en', 'r.text_ne', 'r.maths', 'r.topic'])
        .where('q.id', 'in', part)
        .execute()),
    )
  }
  return rows
}

export async function freezeDraw(db: Kysely<DB>, quizId: number, picks: ReadonlyMap<number, readonly number[]>) {
  await db
    .updateTable('quizzes')
    .set({ draw_mode: 'frozen', frozen_draw: JSON.stringify(Object.fromEntries(picks)) })
    .where('id', '=', quizId)
    .execute()
}
