import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'

// One default section (+1 / -0.2, untimed) when the quiz has none yet.
export async function lastSectionId(db: Kysely<DB>, quizId: number): Promise<number> {
  const last = await db
    .selectFrom('paper_sections')
    .select('id')
    .where('quiz_id', '=', quizId)
    .orderBy('position', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (last) return last.id
  const created = await db
    .insertInto('paper_sections')
    .values({ quiz_id: quizId, position: 1, time_limit_minutes: null })
    .returning('id')
    .executeTakeFirstOrThrow()
  return created.id
}

export async function appendFixedItems(db: Kysely<DB>, quizId: number, questionIds: readonly number[]) {
  if (questionIds.length === 0) return
  const sectionId = await lastSectionId(db, quizId)
  const last = await db
    .selectFrom('paper_items')
    .select((eb) => eb.fn.max('position').as('position'))
    .where('section_id', '=', sectionId)
    .executeTakeFirst()
  const start = Number(last?.position ?? 0)
  for (let offset = 0; offset < questionIds.length; offset += 500) {
    await db
      .insertInto('paper_items')
      .values(
        questionIds.slice(offset, offset + 500).map((questionId, index) => ({
          quiz_id: quizId,
          section_id: sectionId,
          position: start + offset + index + 1,
          question_id: questionId,
          draw_topic: null,
          draw_tags: null,
          draw_difficulty: null,
          draw_source: null,
          draw_count: null,
        })),
      )
      .execute()
  }
}

export async function removeFixedItem(db: Kysely<DB>, quizId: number, questionId: number) {
  const result = await db
    .deleteFrom('paper_items')
    .where('quiz_id', '=', quizId)
    .where('question_id', '=', questionId)
    .executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

export function findFixedQuestion(db: Kysely<DB>, quizId: number, questionId: number) {
  return db
    .selectFrom('paper_items as i')
    .innerJoin('questions as q', 'q.id', 'i.question_id')
    .select(['q.id', 'q.revision_id'])
    .where('i.quiz_id', '=', quizId)
    .where('q.id', '=', questionId)
    .where('q.deleted_at', 'is', null)
    .where('q.revision_id', 'is not', null)
    .executeTakeFirst() as Promise<{ id: number; revision_id: number } | undefined>
}

export function findLiveBankQuestion(db: Kysely<DB>, questionId: number) {
  return db
    .selectFrom('questions')
    .select(['id', 'revision_id'])
    .where('id', '=', questionId)
    .where('deleted_at', 'is', null)
    .where('revision_id', 'is not', null)
    .executeTakeFirst() as Promise<{ id: number; revision_id: number } | undefined>
}

export function listFixedQuestions(db: Kysely<DB>, quizId: number) {
  return db
    .selectFrom('paper_items as i')
    .innerJoin('paper_sections as s', 's.id', 'i.section_id')
    .innerJoin('questions as q', 'q.id', 'i.question_id')
    .select(['q.id as question_id', 'q.revision_id', 'i.section_id'])
    .where('i.quiz_id', '=', quizId)
    .where('q.deleted_at', 'is', null)
    .where('q.revision_id', 'is not', null)
    .orderBy('s.position')
    .orderBy('s.id')
    .orderBy('i.position')
    .orderBy('i.id')
    .execute() as Promise<{ question_id: number; revision_id: number; section_id: number }[]>
}

export function listSections(db: Kysely<DB>, quizId: number) {
  return db
    .selectFrom('paper_sections')
    .selectAll()
    .where('quiz_id', '=', quizId)
    .orderBy('position')
    .orderBy('id')
    .execute()
}

export function listItems(db: Kysely<DB>, quizId: number) {
  return db
    .selectFrom('paper_items as i')
    .innerJoin('paper_sections as s', 's.id', 'i.section_id')
    .selectAll('i')
    .where('i.quiz_id', '=', quizId)
    .orderBy('s.position')
    .orderBy('s.id')
    .orderBy('i.position')
    .orderBy('i.id')
    .execute()
}

// The copy names the same bank questions; the triggers count the new quiz's figures as the items go in.
export async function copyPaper(db: Kysely<DB>, fromQuizId: number, toQuizId: number) {
  const [sections, items] = await Promise.all([listSections(db, fromQuizId), listItems(db, fromQuizId)])
  for (const section of sections) {
    const { id: sectionId, quiz_id: _quiz, ...values } = section
    const copy = await db
      .insertInto('paper_sections')
      .values({ ...values, quiz_id: toQuizId })
      .returning('id')
      .executeTakeFirstOrThrow()
    const mine = items.filter((item) => item.section_id === sectionId)
    for (let offset = 0; offset < mine.length; offset += 500) {
      await db
        .insertInto('paper_items')
        .values(
          mine.slice(offset, offset + 500).map(({ id: _id, quiz_id: _quizId, section_id: _section, ...item }) => ({
            ...item,
            quiz_id: toQuizId,
            section_id: copy.id,
          })),
        )
        .execute()
    }
  }
}
