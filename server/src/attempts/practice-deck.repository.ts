import { sql, type InsertQueryBuilder, type InsertResult, type Kysely } from 'kysely'
import { sqliteTransactionOf } from '../db/database'
import { precompile } from '../db/precompiled-query'
import type { DB } from '../db/schema'

// The practice deck's one writer: a card goes in box 1 when an attempt finishes with the question wrong or
// unanswered, and when a key decision makes a finished answer wrong (challenges/). The deck's reading and
// practising are practice/'s.
type CardRow = {
  user_id: number
  question_id: number
  quiz_id: number
  box: number
  due_at: number
  updated_at: number
}

export interface FirstBoxCards {
  userId: number
  quizId: number
  questionIds: readonly number[]
}

/** A card already in the deck (in any box, or moved to another quiz) goes back to box 1. */
const intoFirstBox = (insert: InsertQueryBuilder<DB, 'practice_cards', InsertResult>) =>
  insert.onConflict((oc) =>
    oc.columns(['user_id', 'question_id']).doUpdateSet((eb) => ({
      box: 1,
      due_at: eb.ref('excluded.due_at'),
      updated_at: eb.ref('excluded.updated_at'),
      quiz_id: eb.ref('excluded.quiz_id'),
    })),
  )

/** SQLite: every card of one finish in one prepared statement, the question ids passed as one JSON array. */
const upsertCardsFromJsonArray = precompile(
  (db: Kysely<DB>, userId: number, quizId: number, questionIdsJson: string, at: number) =>
    intoFirstBox(
      db
        .insertInto('practice_cards')
        .columns(['user_id', 'question_id', 'quiz_id', 'box', 'due_at', 'updated_at'])
        .expression(
          db
            .selectFrom(sql<{ value: number }>`json_each(${questionIdsJson})`.as('j'))
            .select((eb) => [
              eb.val(userId).as('user_id'),
              sql.ref<number>('j.value').as('question_id'),
              eb.val(quizId).as('quiz_id'),
              eb.lit(1).as('box'),
              eb.val(at).as('due_at'),
              eb.val(at).as('updated_at'),
            ])
            // SQLite reads "ON CONFLICT" after a bare "FROM ..." as a join's constraint: a WHERE settles it.
            .where(sql<boolean>`1 = 1`),
        ),
    ),
)

const CHUNK = 500

export async function putCardsInFirstBox(db: Kysely<DB>, cards: readonly FirstBoxCards[], at: number) {
  // Every submit writes its mistakes, often most of the paper. On SQLite one statement compiled once takes them all
  // as a JSON array: building and compiling a statement of that many rows with Kysely, or running a single-row
  // statement per card, cost more than the writes (decision 021); nor are row objects made for it (decision 076).
  if (cards.length === 1 && sqliteTransactionOf(db)) {
    const { userId, quizId, questionIds } = cards[0]!
    if (questionIds.length === 0) return
    // In question order, as below; the statement's ON CONFLICT takes a question twice as once.
    const sortedIds = Float64Array.from(questionIds).sort()
    await upsertCardsFromJsonArray(db, userId, quizId, `[${sortedIds.join(',')}]`, at)
    return
  }
  const rows = new Map<string, CardRow>()
  for (const { userId, quizId, questionIds } of cards)
    for (const questionId of questionIds)
      rows.set(`${userId}:${questionId}`, {
        user_id: userId,
        question_id: questionId,
        quiz_id: quizId,
        box: 1,
        due_at: at,
        updated_at: at,
      })
  if (rows.size === 0) return
  // In (learner, question) order, so two concurrent writes lock the same rows in the same order (no deadlock on
  // PostgreSQL). Multi-row statements of CHUNK rows.
  const sorted = [...rows.values()].sort((a, b) => a.user_id - b.user_id || a.question_id - b.question_id)
  for (let from = 0; from < sorted.length; from += CHUNK)
    await intoFirstBox(db.insertInto('practice_cards').values(sorted.slice(from, from + CHUNK))).execute()
}
