import { sql, type Kysely } from 'kysely'
import { sqliteTransactionOf } from '../db/database'
import { precompile } from '../db/precompiled-query'
import type { DB } from '../db/schema'

type CardRow = { user_id: number; question_id: number; box: number; due_at: number; updated_at: number }

const upsertCards = (db: Kysely<DB>, rows: CardRow[]) =>
  db
    .insertInto('practice_cards')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['user_id', 'question_id']).doUpdateSet((eb) => ({
        box: 1,
        due_at: eb.ref('excluded.due_at'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )

/** SQLite: every card of one finish in one prepared statement, the question ids passed as one JSON array. */
const upsertCardsFromJsonArray = precompile((db: Kysely<DB>, userId: number, questionIdsJson: string, at: number) =>
  db
    .insertInto('practice_cards')
    .columns(['user_id', 'question_id', 'box', 'due_at', 'updated_at'])
    .expression(
      db
        .selectFrom(sql<{ value: number }>`json_each(${questionIdsJson})`.as('j'))
        .select((eb) => [
          eb.val(userId).as('user_id'),
          sql.ref<number>('j.value').as('question_id'),
          eb.lit(1).as('box'),
          eb.val(at).as('due_at'),
          eb.val(at).as('updated_at'),
        ])
        // SQLite reads "ON CONFLICT" after a bare "FROM ..." as a join's constraint: a WHERE settles it.
        .where(sql<boolean>`1 = 1`),
    )
    .onConflict((oc) =>
      oc.columns(['user_id', 'question_id']).doUpdateSet((eb) => ({
        box: 1,
        due_at: eb.ref('excluded.due_at'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    ),
)

/** Puts the questions in the learner's deck in box 1, due at `at`: new cards, cards still there, cards that left. */
export async function putCardsInFirstBox(db: Kysely<DB>, userId: number, questionIds: readonly number[], at: number) {
  if (questionIds.length === 0) return
  // In question order, so two concurrent finishes lock the same rows in the same order (no deadlock on PostgreSQL).
  const sorted = [...new Set(questionIds)].sort((a, b) => a - b)
  // Every submit writes its mistakes (67 of 100 questions in the exam benchmark). On SQLite one statement compiled
  // once takes them all as a JSON array: building and compiling a statement of that many rows with Kysely, or
  // running a single-row statement per card, cost more than the writes (decision 021). PostgreSQL keeps one
  // multi-row statement.
  if (sqliteTransactionOf(db)) {
    await upsertCardsFromJsonArray(db, userId, JSON.stringify(sorted), at)
    return
  }
  await upsertCards(
    db,
    sorted.map((questionId) => ({ user_id: userId, question_id: questionId, box: 1, due_at: at, updated_at: at })),
  ).execute()
}

/** The learner's cards whose question and quiz still exist: a deleted one leaves the deck without a write. */
function liveCards(db: Kysely<DB>, userId: number) {
  return db
    .selectFrom('practice_cards as c')
    .innerJoin('questions as q', 'q.id', 'c.question_id')
    .innerJoin('quizzes as z', 'z.id', 'q.quiz_id')
    .where('c.user_id', '=', userId)
    .where('q.deleted_at', 'is', null)
    .where('q.revision_id', 'is not', null)
    .where('z.deleted_at', 'is', null)
}

export async function countCards(db: Kysely<DB>, userId: number, now: number) {
  const row = await liveCards(db, userId)
    .select((eb) => [
      eb.fn.countAll<number | string>().as('total'),
      eb.fn.sum<number | string | null>(eb.case().when('c.due_at', '<=', now).then(1).else(0).end()).as('due'),
      eb.fn.min<number | string | null>(eb.case().when('c.due_at', '>', now).then(eb.ref('c.due_at')).end()).as('next'),
    ])
    .executeTakeFirstOrThrow()
  // PostgreSQL returns counts, sums and bigints as strings.
  return { total: Number(row.total), due: Number(row.due ?? 0), nextDueAt: row.next === null ? null : Number(row.next) }
}

/** Due cards, longest-waiting first, with the current revision of each question. */
export function listDueCards(db: Kysely<DB>, userId: number, now: number, limit: number) {
  return liveCards(db, userId)
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

/**
 * Moves a card from `fromBox` (still due) to `box`, or out of the deck when `box` is null. Returns false when
 * another answer moved it first, so one due card is never answered twice.
 */
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
