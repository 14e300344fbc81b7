import { sql, type Kysely } from 'kysely'
import { sqliteTransactionOf } from '../db/database'
import { precompile } from '../db/precompiled-query'
import type { DB } from '../db/schema'

// The practice deck's one write that an attempt causes: its mistakes go in box 1 when it finishes. The deck's
// reading and practising are practice/'s.
type CardRow = {
  user_id: number
  question_id: number
  quiz_id: number
  box: number
  due_at: number
  updated_at: number
}

const upsertCards = (db: Kysely<DB>, rows: CardRow[]) =>
  db
    .insertInto('practice_cards')
    .values(rows)
    .onConflict((oc) =>
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
      )
      .onConflict((oc) =>
        oc.columns(['user_id', 'question_id']).doUpdateSet((eb) => ({
          box: 1,
          due_at: eb.ref('excluded.due_at'),
          updated_at: eb.ref('excluded.updated_at'),
          quiz_id: eb.ref('excluded.quiz_id'),
        })),
      ),
)

/** Puts the questions in the learner's deck in box 1, due at `at`: new cards, cards still there, cards that left. */
export async function putCardsInFirstBox(
  db: Kysely<DB>,
  userId: number,
  quizId: number,
  questionIds: readonly number[],
  at: number,
) {
  if (questionIds.length === 0) return
  // In question order, so two concurrent finishes lock the same rows in the same order (no deadlock on PostgreSQL).
  const sorted = [...new Set(questionIds)].sort((a, b) => a - b)
  // Every submit writes its mistakes, often most of the paper. On SQLite one statement compiled
  // once takes them all as a JSON array: building and compiling a statement of that many rows with Kysely, or
  // running a single-row statement per card, cost more than the writes (decision 021). PostgreSQL keeps one
  // multi-row statement.
  if (sqliteTransactionOf(db)) {
    await upsertCardsFromJsonArray(db, userId, quizId, JSON.stringify(sorted), at)
    return
  }
  await upsertCards(
    db,
    sorted.map((questionId) => ({
      user_id: userId,
      question_id: questionId,
      quiz_id: quizId,
      box: 1,
      due_at: at,
      updated_at: at,
    })),
  ).execute()
}
