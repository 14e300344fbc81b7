import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../db/database'
import { precompile } from '../db/precompiled-query'
import type { DB, FlagTable, KeyVersionTable, RegradeTable } from '../db/schema'
import type { Insertable, Selectable } from 'kysely'

// SQL of answer-key challenges (docs/decisions/036). Every write of a key decision is a statement over a set of
// rows (chunks of at most CHUNK rows), never one statement per attempt: 10,000 attempts re-grade in seconds.

const CHUNK = 500

const chunks = <T>(items: readonly T[], size = CHUNK) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size))

export type FlagRow = Selectable<FlagTable>

/** The attempt with what its challenge window and its withheld key (attempts/withheld-keys.service.ts) depend on. */
export function findAttemptForFlag(db: Kysely<DB>, userId: number, attemptId: number) {
  return db
    .selectFrom('attempts as a')
    .innerJoin('quizzes as q', 'q.id', 'a.quiz_id')
    .select(['a.id', 'a.user_id', 'a.status', 'a.revision_ids', 'a.finished_at', 'a.deadline', 'q.challenge_days'])
    .select(['q.live_starts_at', 'q.live_join_minutes', 'q.duration_minutes'])
    .select(['a.mode', 'a.quiz_id', 'q.end_time', 'q.status as quiz_status', 'q.is_paid_tier'])
    .where('a.id', '=', attemptId)
    .where('a.user_id', '=', userId)
    .executeTakeFirst()
}

export function findRevisionOptionIds(db: Kysely<DB>, revisionId: number) {
  return db.selectFrom('question_options').select(['id', 'is_correct']).where('revision_id', '=', revisionId).execute()
}

/** One flag per learner and revision: a second one replaces the first, open again. */
export function upsertFlag(db: Kysely<DB>, values: Insertable<FlagTable>) {
  return db
    .insertInto('flags')
    .values(values)
    .onConflict((oc) =>
      oc.columns(['user_id', 'revision_id']).doUpdateSet((eb) => ({
        attempt_id: eb.ref('excluded.attempt_id'),
        reason: eb.ref('excluded.reason'),
        proposed_option_id: eb.ref('excluded.proposed_option_id'),
        proposed_option_ids: eb.ref('excluded.proposed_option_ids'),
        proposed_value: eb.ref('excluded.proposed_value'),
        note: eb.ref('excluded.note'),
        status: 'open' as const,
        created_at: eb.ref('excluded.created_at'),
        decided_at: null,
        decision: null,
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow()
}

const selectFlagsOfLearner = precompile((db: Kysely<DB>, userId: number) =>
  db.selectFrom('flags').selectAll().where('user_id', '=', userId),
)

// Precompiled, since every report card asks: all of the learner's flags, filtered here (docs/decisions/036).
export async function findFlagsOfLearner(db: Kysely<DB>, userId: number, revisionIds: readonly number[]) {
  if (revisionIds.length === 0) return []
  const flags = (await selectFlagsOfLearner(db, userId)).rows as FlagRow[]
  if (flags.length === 0) return flags
  const onPaper = new Set(revisionIds)
  return flags.filter((flag) => onPaper.has(flag.revision_id))
}

const selectRegradesOfAttempt = precompile((db: Kysely<DB>, attemptId: number) =>
  db
    .selectFrom('regrades as r')
    .innerJoin('key_versions as k', 'k.id', 'r.key_version_id')
    .select(['r.question_id', 'r.old_marks', 'r.new_marks', 'k.created_at', 'k.note'])
    .where('r.attempt_id', '=', attemptId)
    .orderBy('r.id'),
)

export async function listRegradesOfAttempt(db: Kysely<DB>, attemptId: number) {
  return (await selectRegradesOfAttempt(db, attemptId)).rows
}

export async function listFlaggedRevisions(
  db: Kysely<DB>,
  { status, quizId, limit, offset }: { status: 'open' | 'decided'; quizId?: number; limit: number; offset: number },
) {
  let base = db
    .selectFrom('flags as f')
    .where((eb) => (status === 'open' ? eb('f.status', '=', 'open') : eb('f.status', '!=', 'open')))
  if (quizId !== undefined)
    base = base.where('f.attempt_id', 'in', (eb) =>
      eb.selectFrom('attempts').select('attempts.id').where('attempts.quiz_id', '=', quizId),
    )
  const { count } = await base
    .select((eb) => eb.fn.count<number>('f.revision_id').distinct().as('count'))
    .executeTakeFirstOrThrow()
  const rows = await base
    .select(['f.revision_id', 'f.question_id'])
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .groupBy(['f.revision_id', 'f.question_id'])
    .orderBy('total', 'desc')
    .orderBy('f.revision_id')
    .limit(limit)
    .offset(offset)
    .execute()
  return { count: Number(count), rows: rows.map((row) => ({ ...row, total: Number(row.total) })) }
}

export function listFlagsOfRevisions(db: Kysely<DB>, revisionIds: readonly number[], status: 'open' | 'decided') {
  if (revisionIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('flags as f')
    .innerJoin('attempts as a', 'a.id', 'f.attempt_id')
    .innerJoin('quizzes as q', 'q.id', 'a.quiz_id')
    .select(['f.revision_id', 'f.reason', 'f.proposed_option_id', 'f.proposed_option_ids', 'f.proposed_value'])
    .select(['f.note', 'f.created_at'])
    .select(['q.id as quiz_id', 'q.title_en', 'q.title_ne'])
    .where('f.revision_id', 'in', revisionIds)
    .where((eb) => (status === 'open' ? eb('f.status', '=', 'open') : eb('f.status', '!=', 'open')))
    .orderBy('f.created_at')
    .orderBy('f.id')
    .execute()
}

export function findRevisionRow(db: Kysely<DB>, revisionId: number) {
  return db
    .selectFrom('question_revisions as r')
    .innerJoin('questions as q', 'q.id', 'r.question_id')
    .select(['r.id', 'r.question_id', 'r.key_version', 'r.text_en', 'r.type', 'r.numeric_answer', 'r.decimals'])
    .where('r.id', '=', revisionId)
    .executeTakeFirst()
}

export function questionExists(db: Kysely<DB>, questionId: number) {
  return db.selectFrom('questions').select('id').where('id', '=', questionId).executeTakeFirst()
}

/** PostgreSQL: two decisions on one revision wait for each other here, in their transactions. */
export async function lockRevision(db: Kysely<DB>, revisionId: number) {
  await db.selectFrom('question_revisions').select('id').where('id', '=', revisionId).forUpdate().execute()
}

export interface HoldingAttempt {
  id: number
  user_id: number
  quiz_id: number
  attempt_number: number
  revision_ids: string
  sections: string | null
  score_hundredths: number
  option_id: number | null
  /** A multiple or numeric answer as stored (JSON: the option ids, or the typed number's string). */
  value: string | null
}

/** The paper is a JSON array, searched by the database's own JSON functions. */
export async function listAttemptsHoldingRevision(
  db: Kysely<DB>,
  dialect: Dialect,
  revisionId: number,
  questionId: number,
): Promise<HoldingAttempt[]> {
  const holds =
    dialect === 'postgres'
      ? sql<boolean>`a.revision_ids::jsonb @> ${JSON.stringify([revisionId])}::jsonb`
      : sql<boolean>`exists (select 1 from json_each(a.revision_ids) j where j.value = ${revisionId})`
  const rows = await db
    .selectFrom('attempts as a')
    .leftJoin('attempt_answers as aa', (join) =>
      join.onRef('aa.attempt_id', '=', 'a.id').on('aa.question_id', '=', questionId),
    )
    .select(['a.id', 'a.user_id', 'a.quiz_id', 'a.attempt_number', 'a.revision_ids', 'a.sections'])
    .select(['a.score_hundredths', 'aa.option_id', 'aa.value'])
    .where('a.status', '=', 'finished')
    .where(holds)
    .orderBy('a.id')
    .execute()
  return rows.map((row) => ({ ...row, score_hundredths: row.score_hundredths ?? 0 }))
}

export function insertKeyVersion(db: Kysely<DB>, values: Insertable<KeyVersionTable>) {
  return db.insertInto('key_versions').values(values).returning(['id', 'created_at']).executeTakeFirstOrThrow()
}

export async function pointRevisionAtKey(db: Kysely<DB>, revisionId: number, version: number) {
  await db.updateTable('question_revisions').set({ key_version: version }).where('id', '=', revisionId).execute()
}

export type RegradeValues = Insertable<RegradeTable>

/** The record of each change (the scores themselves are outcomes' to move: outcomes/outcomes.service.ts). */
export async function recordRegrades(db: Kysely<DB>, regrades: readonly RegradeValues[]) {
  for (const part of chunks(regrades)) await db.insertInto('regrades').values(part).execute()
}

export async function removeCards(db: Kysely<DB>, questionId: number, userIds: readonly number[]) {
  for (const part of chunks([...new Set(userIds)].sort((a, b) => a - b)))
    await db.deleteFrom('practice_cards').where('question_id', '=', questionId).where('user_id', 'in', part).execute()
}

export async function decideOpenFlags(
  db: Kysely<DB>,
  revisionId: number,
  status: 'accepted' | 'rejected',
  keyVersionId: number,
  now: number,
) {
  return db
    .updateTable('flags')
    .set({ status, decided_at: now, decision: keyVersionId })
    .where('revision_id', '=', revisionId)
    .where('status', '=', 'open')
    .returning(['user_id', 'attempt_id'])
    .execute()
}

export async function listQuizTitles(db: Kysely<DB>, quizIds: readonly number[]) {
  if (quizIds.length === 0) return []
  return db.selectFrom('quizzes').select(['id', 'title_en', 'title_ne']).where('id', 'in', quizIds).execute()
}

export async function quizzesOfAttempts(db: Kysely<DB>, attemptIds: readonly number[]) {
  const quizOf = new Map<number, number>()
  for (const part of chunks(attemptIds)) {
    const rows = await db.selectFrom('attempts').select(['id', 'quiz_id']).where('id', 'in', part).execute()
    for (const row of rows) quizOf.set(row.id, row.quiz_id)
  }
  return quizOf
}

export function findRevisionOfQuestion(db: Kysely<DB>, revisionIds: readonly number[], questionId: number) {
  return db
    .selectFrom('question_revisions')
    .select(['id', 'question_id', 'type', 'decimals'])
    .where('id', 'in', revisionIds)
    .where('question_id', '=', questionId)
    .executeTakeFirst()
}
