import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'

// Regrade requests of written answers (docs/decisions/071).

const requestColumns = [
  'r.id',
  'r.answer_id',
  'r.item_id',
  'r.message',
  'r.status',
  'r.response',
  'r.decided_at',
  'r.settled_at',
  'r.old_marks',
  'r.new_marks',
  'r.closed_at',
  'r.created_at',
] as const

export type RegradeRow = Awaited<ReturnType<typeof findLatestRequest>> & object

export function findLatestRequest(db: Kysely<DB>, answerId: number) {
  return db
    .selectFrom('regrade_requests as r')
    .select(requestColumns)
    .where('r.answer_id', '=', answerId)
    .orderBy('r.id', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/** The answer's request not yet closed (open, or accepted and not yet marked again), if any. */
export function findUnclosedRequest(db: Kysely<DB>, answerId: number, { lock = false } = {}) {
  return db
    .selectFrom('regrade_requests as r')
    .select(requestColumns)
    .where('r.answer_id', '=', answerId)
    .where('r.closed_at', 'is', null)
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst()
}

/** Null when another request of the answer is not closed (the partial unique index, under two requests at once). */
export async function insertRequest(
  db: Kysely<DB>,
  request: { answer_id: number; item_id: number | null; message: string },
  now: number,
) {
  const row = await db
    .insertInto('regrade_requests')
    .values({ ...request, created_at: now })
    .onConflict((conflict) => conflict.column('answer_id').where('closed_at', 'is', null).doNothing())
    .returning('id')
    .executeTakeFirst()
  return row?.id ?? null
}

/**
 * Whether the item is one the learner was shown: an item of their released answer. Any other id, of their rubric or
 * another, is refused alike, so a learner cannot learn which ids a rubric holds (docs/decisions/090).
 */
export function isItemOfAnswer(db: Kysely<DB>, itemId: number, answerId: number) {
  return db
    .selectFrom('written_answer_items')
    .select('item_id')
    .where('item_id', '=', itemId)
    .where('answer_id', '=', answerId)
    .executeTakeFirst()
}

/** A request with its answer, attempt and question, as deciding and settling need it. */
export function findRequestForDecision(db: Kysely<DB>, requestId: number, { lock = false } = {}) {
  return db
    .selectFrom('regrade_requests as r')
    .innerJoin('written_answers as w', 'w.id', 'r.answer_id')
    .innerJoin('attempts as a', 'a.id', 'w.attempt_id')
    .select(requestColumns)
    .select(['w.question_id', 'w.status as answer_status', 'a.id as attempt_id', 'a.quiz_id', 'a.user_id'])
    .where('r.id', '=', requestId)
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst()
}

export async function decideRequest(
  db: Kysely<DB>,
  requestId: number,
  decision: { status: 'accepted' | 'rejected'; response: string; decidedBy: number },
  now: number,
) {
  await db
    .updateTable('regrade_requests')
    .set({
      status: decision.status,
      response: decision.response,
      decided_by: decision.decidedBy,
      decided_at: now,
      closed_at: decision.status === 'rejected' ? now : null,
    })
    .where('id', '=', requestId)
    .where('status', '=', 'open')
    .execute()
}

export async function settleRequest(
  db: Kysely<DB>,
  requestId: number,
  settled: { oldMarks: number; newMarks: number; settledBy: number },
  now: number,
) {
  await db
    .updateTable('regrade_requests')
    .set({
      settled_by: settled.settledBy,
      settled_at: now,
      old_marks: settled.oldMarks,
      new_marks: settled.newMarks,
      closed_at: now,
    })
    .where('id', '=', requestId)
    .execute()
}

/**
 * Whether the user may see and settle the requests of this question in this quiz: they marked one of its answers
 * there. (Admins see every request; the caller checks that.)
 */
export async function marksQuestion(db: Kysely<DB>, userId: number, quizId: number, questionId: number) {
  const row = await db
    .selectFrom('written_answers as w')
    .innerJoin('attempts as a', 'a.id', 'w.attempt_id')
    .select('w.id')
    .where('w.question_id', '=', questionId)
    .where('a.quiz_id', '=', quizId)
    .where('w.marked_by', '=', userId)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

interface QueueFilter {
  status?: 'open' | 'accepted' | 'rejected'
  /** One request (the PATCH's answer). */
  requestId?: number
  quizId?: number
  /** A marker's id: only questions they marked in the quiz; undefined for admins. */
  markerId?: number
  /** Who reads the queue: their own answers' requests are left out (docs/decisions/090). */
  viewerId?: number
  limit: number
  offset: number
}

function queueQuery(db: Kysely<DB>, { status, requestId, quizId, markerId, viewerId }: QueueFilter) {
  return db
    .selectFrom('regrade_requests as r')
    .innerJoin('written_answers as w', 'w.id', 'r.answer_id')
    .innerJoin('attempts as a', 'a.id', 'w.attempt_id')
    .$if(status !== undefined, (query) => query.where('r.status', '=', status!))
    .$if(requestId !== undefined, (query) => query.where('r.id', '=', requestId!))
    .$if(quizId !== undefined, (query) => query.where('a.quiz_id', '=', quizId!))
    .$if(viewerId !== undefined, (query) => query.where('a.user_id', '!=', viewerId!))
    .$if(markerId !== undefined, (query) =>
      query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('written_answers as mw')
            .innerJoin('attempts as ma', 'ma.id', 'mw.attempt_id')
            .select('mw.id')
            .whereRef('mw.question_id', '=', 'w.question_id')
            .whereRef('ma.quiz_id', '=', 'a.quiz_id')
            .where('mw.marked_by', '=', markerId!),
        ),
      ),
    )
}

/** A page of the queue, oldest first (the longest waiting first), and how many there are in all. */
export async function listQueue(db: Kysely<DB>, filter: QueueFilter) {
  const [rows, total] = await Promise.all([
    queueQuery(db, filter)
      .innerJoin('quizzes as q', 'q.id', 'a.quiz_id')
      .innerJoin('question_revisions as qr', 'qr.id', 'w.revision_id')
      .leftJoin('rubric_items as ri', 'ri.id', 'r.item_id')
      .select(requestColumns)
      .select([
        'w.question_id',
        'w.score_hundredths',
        'qr.marks',
        'a.quiz_id',
        'q.title_en',
        'q.title_ne',
        'ri.title_en as item_title_en',
        'ri.title_ne as item_title_ne',
      ])
      .orderBy('r.created_at')
      .orderBy('r.id')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    queueQuery(db, filter)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(total.total) }
}

export function findAnswerAttempt(db: Kysely<DB>, answerId: number) {
  return db
    .selectFrom('written_answers as w')
    .innerJoin('attempts as a', 'a.id', 'w.attempt_id')
    .select(['a.id', 'a.quiz_id', 'a.user_id', 'w.question_id'])
    .where('w.id', '=', answerId)
    .executeTakeFirstOrThrow()
}
