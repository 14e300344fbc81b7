import { sql, type Insertable, type Kysely } from 'kysely'
import type { AttemptMode, AttemptRow, AttemptTable, DB } from '../db/schema'
import { IN_PROGRESS } from '../db/in-progress'
import { precompile } from '../db/precompiled-query'
import { isCountedAttempt } from './counted-attempt.repository'

// Nothing else writes an attempt's outcome (docs/decisions/062; server/test/outcome-writers.test.ts holds it).

const insertAttemptReturningId = precompile(
  (
    db: Kysely<DB>,
    userId: number,
    quizId: number,
    attemptNumber: number,
    status: AttemptRow['status'],
    startedAt: number,
    deadline: number,
    revisionIds: string,
    optionOrder: string | null,
    finishedAt: number | null,
    scoreHundredths: number | null,
    correct: number | null,
    incorrect: number | null,
    unanswered: number | null,
    late: number,
    submitted: number,
    sections: string | null,
    sectionOpenedAt: number | null,
    ranked: number,
    mode: AttemptMode,
    sittingId: number | null,
    marksPending: number,
  ) =>
    db
      .insertInto('attempts')
      .values({
        user_id: userId,
        quiz_id: quizId,
        attempt_number: attemptNumber,
        status,
        started_at: startedAt,
        deadline,
        revision_ids: revisionIds,
        option_order: optionOrder,
        finished_at: finishedAt,
        score_hundredths: scoreHundredths,
        correct,
        incorrect,
        unanswered,
        late,
        submitted,
        sections,
        section_opened_at: sectionOpenedAt,
        ranked,
        mode,
        sitting_id: sittingId,
        marks_pending: marksPending,
      })
      .returning('id'),
)

// The row is made from what was inserted, not read back: `returning *` decoded twenty columns on every start.
export async function insertAttempt(db: Kysely<DB>, attempt: Insertable<AttemptTable>): Promise<AttemptRow> {
  const row: AttemptRow = {
    id: 0, // set below, from the insert
    user_id: attempt.user_id,
    quiz_id: attempt.quiz_id,
    attempt_number: attempt.attempt_number,
    status: attempt.status,
    started_at: attempt.started_at,
    deadline: attempt.deadline,
    revision_ids: attempt.revision_ids,
    option_order: attempt.option_order ?? null,
    finished_at: attempt.finished_at ?? null,
    score_hundredths: attempt.score_hundredths ?? null,
    correct: attempt.correct ?? null,
    incorrect: attempt.incorrect ?? null,
    unanswered: attempt.unanswered ?? null,
    late: attempt.late ?? 0,
    submitted: attempt.submitted ?? 0,
    sections: attempt.sections ?? null,
    current_section: 0,
    section_opened_at: attempt.section_opened_at ?? null,
    ranked: attempt.ranked ?? 1,
    mode: attempt.mode ?? 'online',
    sitting_id: attempt.sitting_id ?? null,
    marks_pending: attempt.marks_pending ?? 0,
    left_out: attempt.left_out ?? null,
  }
  const { rows } = await insertAttemptReturningId(
    db,
    row.user_id,
    row.quiz_id,
    row.attempt_number,
    row.status,
    row.started_at,
    row.deadline,
    row.revision_ids,
    row.option_order,
    row.finished_at,
    row.score_hundredths,
    row.correct,
    row.incorrect,
    row.unanswered,
    row.late,
    row.submitted,
    row.sections,
    row.section_opened_at,
    row.ranked,
    row.mode,
    row.sitting_id,
    row.marks_pending,
  )
  row.id = Number(rows[0]!.id)
  // Only a screen reader's adapted paper (decision 114): the prepared insert every other start runs stays as it is.
  if (row.left_out !== null)
    await db.updateTable('attempts').set({ left_out: row.left_out }).where('id', '=', row.id).execute()
  return row
}

export interface AttemptScore {
  score_hundredths: number
  correct: number
  incorrect: number
  unanswered: number
}

export type FinishedFields = AttemptScore & {
  finished_at: number
  late: number
  submitted: number
  marks_pending: number
}

const updateAttemptFinished = precompile(
  (
    db: Kysely<DB>,
    attemptId: number,
    scoreHundredths: number,
    correct: number,
    incorrect: number,
    unanswered: number,
    finishedAt: number,
    late: number,
    submitted: number,
    marksPending: number,
  ) =>
    db
      .updateTable('attempts')
      .set({
        // Written into the SQL like IN_PROGRESS (in-progress.ts), though only a WHERE value could trip the partial index.
        status: sql.lit('finished'),
        score_hundredths: scoreHundredths,
        correct,
        incorrect,
        unanswered,
        finished_at: finishedAt,
        late,
        submitted,
        marks_pending: marksPending,
      })
      .where('id', '=', attemptId)
      .where('status', '=', IN_PROGRESS),
)

/** The status condition makes a second finish a no-op. */
export async function markAttemptFinished(db: Kysely<DB>, attemptId: number, fields: FinishedFields) {
  const result = await updateAttemptFinished(
    db,
    attemptId,
    fields.score_hundredths,
    fields.correct,
    fields.incorrect,
    fields.unanswered,
    fields.finished_at,
    fields.late,
    fields.submitted,
    fields.marks_pending,
  )
  return Number(result.numAffectedRows ?? 0) === 1
}

/**
 * How many rows count one score (docs/decisions/138). Learners who finish together mostly share a few scores; each
 * finish adds to its score's row and holds that row's lock to the end of its transaction, so with one row a score
 * they queued one behind another (1,000 submits at once on PostgreSQL waited there most). Rows are summed by readers.
 */
const TALLY_SHARDS = 8

const insertCountedScore = precompile((db: Kysely<DB>, attemptId: number) =>
  db
    .insertInto('first_attempt_scores')
    .columns(['quiz_id', 'score_hundredths', 'learners', 'shard'])
    .expression((eb) =>
      eb
        .selectFrom('attempts as a')
        .select([
          'a.quiz_id',
          sql<number>`coalesce(a.score_hundredths, 0)`.as('score_hundredths'),
          sql<number>`1`.as('learners'),
          sql<number>`${sql.ref('a.id')} % ${sql.lit(TALLY_SHARDS)}`.as('shard'),
        ])
        .where('a.id', '=', attemptId)
        .where('a.status', '=', 'finished')
        .where(isCountedAttempt('a')),
    )
    .onConflict((oc) =>
      oc
        .columns(['quiz_id', 'score_hundredths', 'shard'])
        .doUpdateSet((eb) => ({ learners: eb(eb.ref('first_attempt_scores.learners'), '+', 1) })),
    ),
)

export async function countInTally(db: Kysely<DB>, attemptId: number) {
  const result = await insertCountedScore(db, attemptId)
  return Number(result.numAffectedRows ?? 0) > 0
}

/** After anything that changes which attempt is counted or removes one, in its transaction. */
export async function recountRankTally(db: Kysely<DB>, quizId: number) {
  await db.deleteFrom('first_attempt_scores').where('quiz_id', '=', quizId).execute()
  await db
    .insertInto('first_attempt_scores')
    .columns(['quiz_id', 'score_hundredths', 'learners'])
    .expression((eb) =>
      eb
        .selectFrom('attempts as a')
        .select((sub) => [
          'a.quiz_id',
          sub.fn.coalesce('a.score_hundredths', sql<number>`0`).as('score_hundredths'),
          sub.fn.countAll<number>().as('learners'),
        ])
        .where('a.quiz_id', '=', quizId)
        .where('a.status', '=', 'finished')
        .where(isCountedAttempt('a'))
        .groupBy(['a.quiz_id', sql`coalesce(a.score_hundredths, 0)`]),
    )
    .execute()
}

const CHUNK = 500
const chunks = <T>(items: readonly T[]) =>
  Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, index) => items.slice(index * CHUNK, (index + 1) * CHUNK))

export async function addToScores(db: Kysely<DB>, delta: AttemptScore, attemptIds: readonly number[]) {
  for (const part of chunks(attemptIds))
    await db
      .updateTable('attempts')
      .set((eb) => ({
        score_hundredths: eb('score_hundredths', '+', delta.score_hundredths),
        correct: eb('correct', '+', delta.correct),
        incorrect: eb('incorrect', '+', delta.incorrect),
        unanswered: eb('unanswered', '+', delta.unanswered),
      }))
      .where('id', 'in', part)
      .execute()
}

export async function adjustTally(
  db: Kysely<DB>,
  deltas: readonly { quiz_id: number; score_hundredths: number; learners: number }[],
) {
  const moved = deltas.filter((delta) => delta.learners !== 0)
  if (moved.length === 0) return
  // Each delta goes to its score's first row, which may then count fewer than none while other rows of the score
  // count its learners (decision 138); a score whose rows sum to none left is deleted whole.
  for (const part of chunks(moved))
    await db
      .insertInto('first_attempt_scores')
      .values(part)
      .onConflict((oc) =>
        oc
          .columns(['quiz_id', 'score_hundredths', 'shard'])
          .doUpdateSet((eb) => ({ learners: sql`${eb.ref('first_attempt_scores.learners')} + excluded.learners` })),
      )
      .execute()
  const quizIds = [...new Set(moved.map((delta) => delta.quiz_id))]
  await db
    .deleteFrom('first_attempt_scores')
    .where('quiz_id', 'in', quizIds)
    .where(({ eb, refTuple, selectFrom }) =>
      eb(
        refTuple('quiz_id', 'score_hundredths'),
        'in',
        selectFrom('first_attempt_scores as f')
          .select(['f.quiz_id', 'f.score_hundredths'])
          .where('f.quiz_id', 'in', quizIds)
          .groupBy(['f.quiz_id', 'f.score_hundredths'])
          .having((having) => having.fn.sum('f.learners'), '<=', 0)
          .$asTuple('quiz_id', 'score_hundredths'),
      ),
    )
    .execute()
}

/** Its answers, question states, flags and re-grade records go with it (foreign keys cascade). */
export async function deleteAttempt(db: Kysely<DB>, attemptId: number) {
  await db.deleteFrom('attempts').where('id', '=', attemptId).execute()
}

export type LiveWindow = { startsAt: number; joinEndsAt: number } | null

// Which attempts are ranked after a schedule change: docs/decisions/038 "In the code".
export async function rederiveRanked(db: Kysely<DB>, quizId: number, window: LiveWindow) {
  if (window === null) {
    await db.updateTable('attempts').set({ ranked: 1 }).where('quiz_id', '=', quizId).where('ranked', '=', 0).execute()
    return
  }
  const { startsAt, joinEndsAt } = window
  const sitsTheMock = (alias: string) =>
    sql`(${sql.ref(`${alias}.mode`)} = 'paper' or (${sql.ref(`${alias}.started_at`)} >= ${startsAt} and ${sql.ref(`${alias}.started_at`)} < ${joinEndsAt}))`
  await db
    .updateTable('attempts')
    .set({
      ranked: sql<number>`case when ${sitsTheMock('attempts')} and not exists (
        select 1 from attempts earlier
        where earlier.quiz_id = attempts.quiz_id and earlier.user_id = attempts.user_id
          and ${sitsTheMock('earlier')} and earlier.attempt_number < attempts.attempt_number
      ) then 1 else 0 end`,
    })
    .where('quiz_id', '=', quizId)
    .execute()
}

const selectTallyStanding = precompile((db: Kysely<DB>, quizId: number, scoreHundredths: number) =>
  db
    .selectFrom('first_attempt_scores')
    .select((eb) => [
      eb.fn.sum<number | string | null>('learners').as('participants'),
      eb.fn
        .sum<number | string | null>(
          eb.case().when('score_hundredths', '>', scoreHundredths).then(eb.ref('learners')).else(0).end(),
        )
        .as('above'),
      eb.fn
        .sum<number | string | null>(
          eb.case().when('score_hundredths', '<', scoreHundredths).then(eb.ref('learners')).else(0).end(),
        )
        .as('below'),
      eb.fn.sum<number | string | null>(eb('score_hundredths', '*', eb.ref('learners'))).as('sum'),
      eb.fn.max<number | string | null>('score_hundredths').as('highest'),
    ])
    .where('quiz_id', '=', quizId),
)

export async function findTallyStanding(db: Kysely<DB>, quizId: number, scoreHundredths: number) {
  const row = (await selectTallyStanding(db, quizId, scoreHundredths)).rows[0]!
  // PostgreSQL answers sums of integers as strings.
  return {
    participants: Number(row.participants ?? 0),
    above: Number(row.above ?? 0),
    below: Number(row.below ?? 0),
    sumHundredths: Number(row.sum ?? 0),
    highestHundredths: Number(row.highest ?? 0),
  }
}

export async function findCountedAttemptScore(db: Kysely<DB>, userId: number, quizId: number) {
  const row = await db
    .selectFrom('attempts as a')
    .select('a.score_hundredths')
    .where('a.user_id', '=', userId)
    .where('a.quiz_id', '=', quizId)
    .where('a.status', '=', 'finished')
    .where(isCountedAttempt('a'))
    .limit(1)
    .executeTakeFirst()
  return row?.score_hundredths ?? undefined
}

export async function clearMarksPending(db: Kysely<DB>, attemptIds: readonly number[]) {
  for (const part of chunks(attemptIds))
    await db.updateTable('attempts').set({ marks_pending: 0 }).where('id', 'in', part).execute()
}

export async function findScoredAttempts(db: Kysely<DB>, attemptIds: readonly number[]) {
  const found = []
  for (const part of chunks(attemptIds))
    found.push(
      ...(await db
        .selectFrom('attempts as a')
        .select(['a.id', 'a.quiz_id', 'a.user_id', 'a.score_hundredths'])
        .select(isCountedAttempt('a').as('counted'))
        .where('a.id', 'in', part)
        .execute()),
    )
  return found.map((row) => ({
    id: row.id,
    quiz_id: row.quiz_id,
    user_id: row.user_id,
    score_hundredths: row.score_hundredths ?? 0,
    // SQLite answers a condition as 0 or 1, PostgreSQL as a boolean.
    counted: Boolean(row.counted),
  }))
}

export function listCountedScores(db: Kysely<DB>, quizIds: readonly number[]) {
  if (quizIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('attempts as a')
    .select(['a.id', 'a.user_id', 'a.quiz_id', 'a.score_hundredths'])
    .where('a.quiz_id', 'in', quizIds)
    .where('a.status', '=', 'finished')
    .where(isCountedAttempt('a'))
    .execute()
}
