import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'

// A deleted question or quiz leaves the deck without a write.
function liveCards(db: Kysely<DB>, userId: number, withheld: ReadonlySet<number> = NONE) {
  return (
    db
      .selectFrom('practice_cards as c')
      .innerJoin('questions as q', 'q.id', 'c.question_id')
      // The quiz whose attempt put the card there (none for cards older than that record): deleted, the card leaves.
      .leftJoin('quizzes as z', 'z.id', 'c.quiz_id')
      .where('c.user_id', '=', userId)
      .where('q.deleted_at', 'is', null)
      .where('q.revision_id', 'is not', null)
      .where('z.deleted_at', 'is', null)
      .$if(withheld.size > 0, (query) => query.where('c.question_id', 'not in', [...withheld]))
  )
}

const NONE: ReadonlySet<number> = new Set()

export async function countCards(db: Kysely<DB>, userId: number, now: number, withheld?: ReadonlySet<number>) {
  const row = await liveCards(db, userId, withheld)
    .select((eb) => [
      eb.fn.countAll<number | string>().as('total'),
      eb.fn.sum<number | string | null>(eb.case().when('c.due_at', '<=', now).then(1).else(0).end()).as('due'),
      eb.fn.min<number | string | null>(eb.case().when('c.due_at', '>', now).then(eb.ref('c.due_at')).end()).as('next'),
    ])
    .executeTakeFirstOrThrow()
  return { total: Number(row.total), due: Number(row.due ?? 0), nextDueAt: row.next === null ? null : Number(row.next) }
}

export function listDueCards(
  db: Kysely<DB>,
  userId: number,
  now: number,
  limit: number,
  withheld?: ReadonlySet<number>,
) {
  return liveCards(db, userId, withheld)
    .select(['c.question_id', 'c.box', 'c.due_at', 'q.revision_id'])
    .where('c.due_at', '<=', now)
    .orderBy('c.due_at')
    .orderBy('c.question_id')
    .limit(limit)
    .execute() as Promise<{ question_id: number; box: number; due_at: number; revision_id: number }[]>
}

export function findCard(db: Kysely<DB>, userId: number, questionId: number) {
  return liveCards(db, userId)
    .select(['c.question_id', 'c.box', 'c.due_at', 'q.revision_id'])
    .where('c.question_id', '=', questionId)
    .executeTakeFirst() as Promise<
    { question_id: number; box: number; due_at: number; revision_id: number } | undefined
  >
}

// False when another answer moved it first, so one due card is never answered twice.
export async function moveCard(
  db: Kysely<DB>,
  card: { userId: number; questionId: number; fromBox: number; now: number },
  to: { box: number; dueAt: number } | null,
) {
  const result = to
    ? await db
        .updateTable('practice_cards')
        .set({ box: to.box, due_at: to.dueAt, updated_at: card.now })
        .where('user_id', '=', card.userId)
        .where('question_id', '=', card.questionId)
        .where('box', '=', card.fromBox)
        .where('due_at', '<=', card.now)
        .executeTakeFirst()
    : await db
        .deleteFrom('practice_cards')
        .where('user_id', '=', card.userId)
        .where('question_id', '=', card.questionId)
        .where('box', '=', card.fromBox)
        .where('due_at', '<=', card.now)
        .executeTakeFirst()
  return Number('numUpdatedRows' in result ? result.numUpdatedRows : result.numDeletedRows) === 1
}
