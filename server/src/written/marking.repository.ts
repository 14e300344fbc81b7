import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/schema'

// The marking queue, claims, pages' annotations and release by quiz (docs/decisions/068).

/** The quiz's fixed items in paper order, with their current revision's type. */
export function listPaperQuestions(db: Kysely<DB>, quizId: number) {
  return db
    .selectFrom('paper_items as i')
    .innerJoin('paper_sections as s', 's.id', 'i.section_id')
    .innerJoin('questions as q', 'q.id', 'i.question_id')
    .innerJoin('question_revisions as r', 'r.id', 'q.revision_id')
    .select(['i.question_id', 'r.type'])
    .where('i.quiz_id', '=', quizId)
    .where('i.question_id', 'is not', null)
    .orderBy('s.position')
    .orderBy('i.position')
    .execute()
}

export function countAnswersByQuestion(db: Kysely<DB>, quizId: number, now: number) {
  return db
    .selectFrom('written_answers as w')
    .innerJoin('attempts as a', 'a.id', 'w.attempt_id')
    .select('w.question_id')
    .select((eb) => [
      eb.fn.countAll<number>().as('submitted'),
      eb.fn.sum<number>(eb.case().when('w.status', '=', 'marked').then(1).else(0).end()).as('marked'),
      eb.fn.sum<number>(eb.case().when('w.status', '=', 'released').then(1).else(0).end()).as('released'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.and([eb('w.status', '=', 'submitted'), eb('w.claimed_until', '>', now)]))
            .then(1)
            .else(0)
            .end(),
        )
        .as('claimed'),
    ])
    .where('a.quiz_id', '=', quizId)
    .where('a.status', '=', 'finished')
    .groupBy('w.question_id')
    .execute()
}

// A multiplicative hash of the id (as `markingOrderOf`): a fixed order that is not the order answers came in.
const shuffled = sql<number>`((w.id * 2654435761) % 2147483629) + 1`

/** An answer's place in its question's marking order, as `shuffled` computes it in SQL. */
export const markingOrderOf = (answerId: number) => Number(((BigInt(answerId) * 2654435761n) % 2147483629n) + 1n)

/**
 * Claims the next unmarked answer of the question in the quiz for `markerId` until `until`: the marker's own live
 * claim first, then unclaimed or expired ones in marking order. PostgreSQL skips rows another transaction is claiming;
 * SQLite's write transactions are one at a time.
 */
export async function claimNextAnswer(
  db: Kysely<DB>,
  { quizId, questionId, markerId, now, until, skipLocked }: ClaimRequest,
) {
  const next = await db
    .selectFrom('written_answers as w')
    .select(['w.id'])
    .where('w.question_id', '=', questionId)
    .where('w.status', '=', 'submitted')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('attempts as a')
          .select('a.id')
          .whereRef('a.id', '=', 'w.attempt_id')
          .where('a.quiz_id', '=', quizId)
          .where('a.status', '=', 'finished')
          // Nobody marks their own answer, an admin who also sat the quiz included (docs/decisions/090).
          .where('a.user_id', '!=', markerId),
      ),
    )
    // A blank answer (no text, no page) has nothing to mark: release settles it at 0.
    .where((eb) =>
      eb.or([
        eb('w.text', '!=', ''),
        eb.exists(eb.selectFrom('written_answer_pages as p').select('p.id').whereRef('p.answer_id', '=', 'w.id')),
      ]),
    )
    .where((eb) =>
      eb.or([eb('w.claimed_by', 'is', null), eb('w.claimed_until', '<=', now), eb('w.claimed_by', '=', markerId)]),
    )
    .orderBy(sql`case when w.claimed_by = ${markerId} and w.claimed_until > ${now} then 0 else 1 end`)
    .orderBy(shuffled)
    .orderBy('w.id')
    .limit(1)
    .$if(skipLocked, (query) => query.forUpdate().skipLocked())
    .executeTakeFirst()
  if (!next) return undefined
  await db
    .updateTable('written_answers')
    // The order is kept where it was used, for the record.
    .set({ claimed_by: markerId, claimed_until: until, marking_order: markingOrderOf(next.id) })
    .where('id', '=', next.id)
    .execute()
  return next.id
}

/** A code naming the script to markers and nothing else: its place in the shuffled order. */
export const anonymousCode = (answerId: number) =>
  `S-${markingOrderOf(answerId).toString(36).toUpperCase().padStart(6, '0')}`

interface ClaimRequest {
  quizId: number
  questionId: number
  markerId: number
  now: number
  until: number
  skipLocked: boolean
}

/** The answer as a marker sees it, with its attempt's quiz; no learner's identity. */
export function findAnswerForMarking(db: Kysely<DB>, answerId: number, { lock = false } = {}) {
  return db
    .selectFrom('written_answers as w')
    .innerJoin('attempts as a', 'a.id', 'w.attempt_id')
    .select([
      'w.id',
      'w.question_id',
      'w.text',
      'w.word_count',
      'w.status',
      'w.score_hundredths',
      'w.adjustment',
      'w.comment_en',
      'w.comment_ne',
      'w.rubric_revision',
      'w.claimed_by',
      'w.claimed_until',
      'w.marking_order',
      'w.marked_by',
      'a.quiz_id',
      'a.user_id',
      'a.status as attempt_status',
    ])
    .where('w.id', '=', answerId)
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst()
}

export function listPages(db: Kysely<DB>, answerId: number) {
  return db
    .selectFrom('written_answer_pages as p')
    .innerJoin('page_images as i', 'i.hash', 'p.image_hash')
    .select(['p.id', 'p.annotations', 'i.width', 'i.height'])
    .where('p.answer_id', '=', answerId)
    .orderBy('p.number')
    .execute()
}

export async function storeAnnotations(db: Kysely<DB>, answerId: number, docs: readonly { id: number; doc: string }[]) {
  for (const { id, doc } of docs)
    await db
      .updateTable('written_answer_pages')
      .set({ annotations: doc })
      .where('id', '=', id)
      .where('answer_id', '=', answerId)
      .execute()
}

export async function endClaim(db: Kysely<DB>, answerId: number) {
  await db
    .updateTable('written_answers')
    .set({ claimed_by: null, claimed_until: null })
    .where('id', '=', answerId)
    .execute()
}

export function listMarkedInQuiz(db: Kysely<DB>, quizId: number, questionId: number, markedBy?: number) {
  return db
    .selectFrom('written_answers as w')
    .innerJoin('attempts as a', 'a.id', 'w.attempt_id')
    .select(['w.id', 'w.score_hundredths', 'a.id as attempt_id', 'a.user_id'])
    .where('a.quiz_id', '=', quizId)
    .where('a.status', '=', 'finished')
    .where('w.question_id', '=', questionId)
    .where('w.status', '=', 'marked')
    .$if(markedBy !== undefined, (query) => query.where('w.marked_by', '=', markedBy!))
    .execute()
}

export function listPendingAttempts(db: Kysely<DB>, quizId: number) {
  return db
    .selectFrom('attempts')
    .select(['id', 'user_id', 'revision_ids'])
    .where('quiz_id', '=', quizId)
    .where('status', '=', 'finished')
    .where('marks_pending', '=', 1)
    .execute()
}

export function writtenRevisions(db: Kysely<DB>, revisionIds: readonly number[]) {
  if (revisionIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('question_revisions')
    .select(['id', 'question_id'])
    .where('id', 'in', [...new Set(revisionIds)])
    .where('type', '=', 'written')
    .execute()
}

export function answersOfAttempts(db: Kysely<DB>, attemptIds: readonly number[]) {
  if (attemptIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('written_answers')
    .select(['id', 'attempt_id', 'question_id', 'status', 'text'])
    .where('attempt_id', 'in', attemptIds)
    .execute()
}

export async function hasPages(db: Kysely<DB>, answerId: number) {
  const row = await db
    .selectFrom('written_answer_pages')
    .select('id')
    .where('answer_id', '=', answerId)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/** An answer left blank (no text, no page), settled at 0 and released with its question. */
export async function releaseBlank(db: Kysely<DB>, answerId: number, now: number) {
  await db
    .updateTable('written_answers')
    .set({ status: 'released', score_hundredths: 0, marked_at: now, released_at: now, updated_at: now })
    .where('id', '=', answerId)
    .execute()
}

export function findQuiz(db: Kysely<DB>, quizId: number, { lock }: { lock: boolean }) {
  return (
    db
      .selectFrom('quizzes')
      // The live columns decide whether the mock's key, and so its written marks, may be out yet.
      .select(['id', 'live_starts_at', 'live_join_minutes', 'duration_minutes', 'end_time'])
      .where('id', '=', quizId)
      .$if(lock, (query) => query.forUpdate())
      .executeTakeFirst()
  )
}

/**
 * A marker's way in (docs/decisions/094): the published, not deleted quizzes with written answers of finished attempts,
 * with the overview's counts summed over their questions, newest activity first. `to_mark` counts what `next` would
 * hand `readerId`: not yet marked, not blank, not their own.
 */
export async function listQuizzesToMark(
  db: Kysely<DB>,
  { readerId, limit, offset }: { readerId: number; limit: number; offset: number },
) {
  const answers = db
    .selectFrom('written_answers as w')
    .innerJoin('attempts as a', 'a.id', 'w.attempt_id')
    .innerJoin('quizzes as q', 'q.id', 'a.quiz_id')
    .where('a.status', '=', 'finished')
    .where('q.deleted_at', 'is', null)
    .where('q.status', '=', 'published')
  const [total, rows] = await Promise.all([
    answers.select((eb) => eb.fn.count<number>('q.id').distinct().as('count')).executeTakeFirstOrThrow(),
    answers
      .select(['q.id', 'q.title_en', 'q.title_ne'])
      .select((eb) => [
        eb.fn.count<number>('w.question_id').distinct().as('questions'),
        eb.fn.countAll<number>().as('submitted'),
        eb.fn.sum<number>(eb.case().when('w.status', '=', 'marked').then(1).else(0).end()).as('marked'),
        eb.fn.sum<number>(eb.case().when('w.status', '=', 'released').then(1).else(0).end()).as('released'),
        eb.fn
          .sum<number>(
            eb
              .case()
              .when(
                eb.and([
                  eb('w.status', '=', 'submitted'),
                  eb('a.user_id', '!=', readerId),
                  eb.or([
                    eb('w.text', '!=', ''),
                    eb.exists(
                      eb.selectFrom('written_answer_pages as p').select('p.id').whereRef('p.answer_id', '=', 'w.id'),
                    ),
                  ]),
                ]),
              )
              .then(1)
              .else(0)
              .end(),
          )
          .as('to_mark'),
        eb.fn.max('w.updated_at').as('last_activity'),
      ])
      .groupBy(['q.id', 'q.title_en', 'q.title_ne'])
      .orderBy('last_activity', 'desc')
      .orderBy('q.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
  ])
  return { count: Number(total.count), rows }
}
