import { sql, type InsertQueryBuilder, type InsertResult, type Kysely } from 'kysely'
import { isPostgres, sqliteTransactionOf } from '../db/database'
import { precompile } from '../db/precompiled-query'
import type { DB } from '../db/schema'

// The practice deck's one writer (finishes and key decisions); reading and practising are practice/'s.
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
  /** Their due and updated time when not the call's (owed cards keep their finish's). */
  at?: number
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

// In question order, as the multi-row path's; the statement's ON CONFLICT takes a question twice as once.
const sortedJsonArray = (questionIds: readonly number[]) => `[${Float64Array.from(questionIds).sort().join(',')}]`

export async function putCardsInFirstBox(db: Kysely<DB>, cards: readonly FirstBoxCards[], at: number) {
  // One statement of a JSON array on SQLite, not a Kysely multi-row build nor a statement per card (decisions 021, 076).
  if (cards.length === 1 && sqliteTransactionOf(db)) {
    const { userId, quizId, questionIds, at: cardsAt = at } = cards[0]!
    if (questionIds.length === 0) return
    await upsertCardsFromJsonArray(db, userId, quizId, sortedJsonArray(questionIds), cardsAt)
    return
  }
  const rows = new Map<string, CardRow>()
  // A card named twice takes its last naming: callers pass owed cards oldest first (decision 080).
  for (const { userId, quizId, questionIds, at: cardsAt = at } of cards)
    for (const questionId of questionIds)
      rows.set(`${userId}:${questionId}`, {
        user_id: userId,
        question_id: questionId,
        quiz_id: quizId,
        box: 1,
        due_at: cardsAt,
        updated_at: cardsAt,
      })
  if (rows.size === 0) return
  // In (learner, question) order: concurrent writes lock rows in one order (no PostgreSQL deadlock).
  const sorted = [...rows.values()].sort((a, b) => a.user_id - b.user_id || a.question_id - b.question_id)
  for (let from = 0; from < sorted.length; from += CHUNK)
    await intoFirstBox(db.insertInto('practice_cards').values(sorted.slice(from, from + CHUNK))).execute()
}

// Owed cards: docs/decisions/080; readers pay a deck's debts first, so never see it without them.

const insertOwedCards = precompile(
  (db: Kysely<DB>, userId: number, quizId: number, questionIdsJson: string, at: number) =>
    db
      .insertInto('owed_practice_cards')
      .values({ user_id: userId, quiz_id: quizId, question_ids: questionIdsJson, owed_at: at }),
)

export async function oweCards(db: Kysely<DB>, { userId, quizId, questionIds }: FirstBoxCards, at: number) {
  if (questionIds.length === 0) return
  await insertOwedCards(db, userId, quizId, sortedJsonArray(questionIds), at)
}

type OwedRow = { id: number; user_id: number; quiz_id: number; question_ids: string; owed_at: number }

const owedOfLearner = precompile((db: Kysely<DB>, userId: number) =>
  db.selectFrom('owed_practice_cards').select('id').where('user_id', '=', userId).limit(1),
)

/** Whether the learner's deck has cards owed: a reader pays only then, so reading an up-to-date deck writes nothing. */
export async function owesCards(db: Kysely<DB>, userId: number) {
  const { rows } = await owedOfLearner(db, userId)
  return rows.length > 0
}

// The learner's lock (decision 080); two ints, apart from imports' one-bigint advisory locks.
const LEARNER_DECK_LOCK = 80

export async function payOwedCards(db: Kysely<DB>, userIds: readonly number[]): Promise<number> {
  const owing = await learnersOwing(db, userIds)
  if (owing.length === 0) return 0
  if (isPostgres(db))
    for (const userId of owing) await sql`select pg_advisory_xact_lock(${LEARNER_DECK_LOCK}, ${userId})`.execute(db)
  return writeOwed(db, await owedRowsOf(db, owing))
}

/** The background pass's batch, oldest first; on PostgreSQL a learner locked elsewhere is passed over. */
export async function payOldestOwedCards(db: Kysely<DB>, batch: number): Promise<number> {
  const oldest = await db.selectFrom('owed_practice_cards').selectAll().orderBy('id').limit(batch).execute()
  if (oldest.length === 0) return 0
  if (!isPostgres(db)) return writeOwed(db, oldest) // one writer at a time: what it read is what it pays
  // One statement for all the batch's learners: a try never waits, so the order the locks are taken in cannot matter.
  const { rows: locked } = await sql<{ user_id: number }>`
    select u as user_id from unnest(${[...new Set(oldest.map((row) => row.user_id))]}::int[]) as u
    where pg_try_advisory_xact_lock(${LEARNER_DECK_LOCK}, u)`.execute(db)
  return writeOwed(
    db,
    await owedRowsOf(
      db,
      locked.map((row) => row.user_id),
    ),
  )
}

async function learnersOwing(db: Kysely<DB>, userIds: readonly number[]) {
  const owing = new Set<number>()
  for (const part of chunks([...new Set(userIds)]))
    for (const row of await db
      .selectFrom('owed_practice_cards')
      .select('user_id')
      .distinct()
      .where('user_id', 'in', part)
      .execute())
      owing.add(row.user_id)
  return [...owing].sort((a, b) => a - b)
}

async function owedRowsOf(db: Kysely<DB>, userIds: readonly number[]) {
  const rows: OwedRow[] = []
  for (const part of chunks(userIds))
    rows.push(
      ...(await db.selectFrom('owed_practice_cards').selectAll().where('user_id', 'in', part).orderBy('id').execute()),
    )
  return rows.sort((a, b) => a.id - b.id)
}

async function writeOwed(db: Kysely<DB>, rows: readonly OwedRow[]): Promise<number> {
  if (rows.length === 0) return 0
  if (sqliteTransactionOf(db)) {
    for (const row of rows) await upsertCardsFromJsonArray(db, row.user_id, row.quiz_id, row.question_ids, row.owed_at)
  } else {
    await putCardsInFirstBox(
      db,
      rows.map((row) => ({
        userId: row.user_id,
        quizId: row.quiz_id,
        questionIds: JSON.parse(row.question_ids) as number[],
        at: row.owed_at,
      })),
      0,
    )
  }
  for (const part of chunks(rows.map((row) => row.id)))
    await db.deleteFrom('owed_practice_cards').where('id', 'in', part).execute()
  return rows.length
}

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const parts: T[][] = []
  for (let from = 0; from < items.length; from += size) parts.push(items.slice(from, from + size))
  return parts
}
