import { CompiledQuery, sql, type Kysely } from 'kysely'
import type { AttemptRow, DB } from '../db/schema'
import { isPostgres, prepareOnPostgres } from '../db/database'
import { IN_PROGRESS } from '../db/in-progress'
import { instituteOfNewRows } from '../db/request-scope'
import { precompile } from '../db/precompiled-query'
import { paperColumns } from '../questions/paper-columns'
import { attemptSections, type AttemptSection } from '../questions/sections'
import type { AnswerValue } from '../questions/scoring'

// Rows keep the JSON text (the paper cache and the sections' cache key on it); decoded only where read.
export const attemptColumns = {
  revisionIds: (attempt: Pick<AttemptRow, 'revision_ids'>) => paperColumns.revisionIds(attempt.revision_ids),
  optionOrder: (attempt: Pick<AttemptRow, 'option_order'>) => paperColumns.optionOrder(attempt.option_order),
  sections: (attempt: Pick<AttemptRow, 'sections' | 'revision_ids'>): readonly AttemptSection[] =>
    attempt.sections
      ? attemptSections(attempt.sections, 0)
      : attemptSections(null, attemptColumns.revisionIds(attempt).length),
}

// Run 1,000 times each on exam day: compiled once (precompile), plain prepared statements on SQLite.
const selectAttempts = precompile((db: Kysely<DB>, userId: number, quizId: number) =>
  db
    .selectFrom('attempts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('quiz_id', '=', quizId)
    .orderBy('attempt_number'),
)
const selectAttemptsForUpdate = precompile((db: Kysely<DB>, userId: number, quizId: number) =>
  db
    .selectFrom('attempts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('quiz_id', '=', quizId)
    .orderBy('attempt_number')
    .forUpdate(),
)

export async function listAttempts(db: Kysely<DB>, userId: number, quizId: number, { lock = false } = {}) {
  return (await (lock ? selectAttemptsForUpdate : selectAttempts)(db, userId, quizId)).rows
}

// Compiled once: the results list, the practice deck and the quiz list run it on every request (decision 076).
const selectExpiredOfLearner = precompile((db: Kysely<DB>, userId: number, deadlineBefore: number) =>
  db
    .selectFrom('attempts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', IN_PROGRESS)
    .where('deadline', '<', deadlineBefore)
    .orderBy('id'),
)
const selectExpiredOfLearnerAtQuiz = precompile(
  (db: Kysely<DB>, userId: number, deadlineBefore: number, quizId: number) =>
    db
      .selectFrom('attempts')
      .selectAll()
      .where('user_id', '=', userId)
      .where('status', '=', IN_PROGRESS)
      .where('deadline', '<', deadlineBefore)
      .where('quiz_id', '=', quizId)
      .orderBy('id'),
)

export async function listExpiredAttempts(
  db: Kysely<DB>,
  userId: number,
  deadlineBefore: number,
  { quizId, lock = false }: { quizId?: number; lock?: boolean } = {},
): Promise<AttemptRow[]> {
  if (!lock)
    return (
      quizId === undefined
        ? await selectExpiredOfLearner(db, userId, deadlineBefore)
        : await selectExpiredOfLearnerAtQuiz(db, userId, deadlineBefore, quizId)
    ).rows
  return db
    .selectFrom('attempts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', IN_PROGRESS)
    .where('deadline', '<', deadlineBefore)
    .$if(quizId !== undefined, (qb) => qb.where('quiz_id', '=', quizId!))
    .orderBy('id')
    .$if(lock, (qb) => qb.forUpdate())
    .execute()
}

const selectAttemptInProgress = precompile((db: Kysely<DB>, attemptId: number) =>
  db.selectFrom('attempts').select('id').where('id', '=', attemptId).where('status', '=', IN_PROGRESS),
)
const selectAttemptInProgressForShare = precompile((db: Kysely<DB>, attemptId: number) =>
  db.selectFrom('attempts').select('id').where('id', '=', attemptId).where('status', '=', IN_PROGRESS).forShare(),
)

/** True when the attempt is still in progress; on PostgreSQL (`share`) it also keeps a submit from finishing it meanwhile. */
export async function isAttemptInProgress(db: Kysely<DB>, attemptId: number, { share = false } = {}) {
  const { rows } = await (share ? selectAttemptInProgressForShare : selectAttemptInProgress)(db, attemptId)
  return rows.length > 0
}

export function findLatestAttempt(db: Kysely<DB>, userId: number, quizId: number) {
  return db
    .selectFrom('attempts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('quiz_id', '=', quizId)
    .orderBy('attempt_number', 'desc')
    .limit(1)
    .executeTakeFirst()
}

// Answers as one text "[question,answer,...]": cheaper than up to 200 row objects at a submit or start (issue 62).
// `value` is JSON already (a list of option ids, a quoted number), so it joins the text as it is.
const selectAnswers = precompile((db: Kysely<DB>, attemptId: number) =>
  db
    .selectFrom('attempt_answers')
    .select(
      (isPostgres(db)
        ? sql<string | null>`string_agg(question_id || ',' || coalesce(value, cast(option_id as text), 'null'), ',')`
        : sql<string | null>`group_concat(question_id || ',' || coalesce(value, option_id, 'null'))`
      ).as('pairs'),
    )
    .where('attempt_id', '=', attemptId),
)

export async function listAnswers(db: Kysely<DB>, attemptId: number): Promise<Map<number, AnswerValue>> {
  const { rows } = await selectAnswers(db, attemptId)
  const answers = new Map<number, AnswerValue>()
  const pairs = rows[0]?.pairs
  if (!pairs) return answers
  const flat = JSON.parse(`[${pairs}]`) as AnswerValue[]
  for (let i = 0; i < flat.length; i += 2) answers.set(flat[i] as number, flat[i + 1] ?? null)
  return answers
}

const answerValues = (attemptId: number, questionId: number, optionId: number | null, now: number) => ({
  attempt_id: attemptId,
  question_id: questionId,
  option_id: optionId,
  saved_at: now,
})

const insertOrReplaceAnswer = precompile(
  (db: Kysely<DB>, attemptId: number, questionId: number, optionId: number | null, now: number) =>
    db
      .insertInto('attempt_answers')
      .values(answerValues(attemptId, questionId, optionId, now))
      .onConflict((oc) =>
        oc.columns(['attempt_id', 'question_id']).doUpdateSet((eb) => ({
          option_id: eb.ref('excluded.option_id'),
          saved_at: eb.ref('excluded.saved_at'),
        })),
      ),
)

// An answer of any type or a clear, written only while the attempt is in progress (a choice answer's `value` is null).
const insertOrReplaceAnswerIfInProgress = precompile(
  (db: Kysely<DB>, attemptId: number, questionId: number, optionId: number | null, value: string | null, now: number) =>
    db
      .insertInto('attempt_answers')
      .columns(['attempt_id', 'question_id', 'option_id', 'value', 'saved_at'])
      .expression(
        db
          .selectNoFrom((eb) => [
            eb.val(attemptId).as('attempt_id'),
            eb.val(questionId).as('question_id'),
            eb.val(optionId).as('option_id'),
            eb.val(value).as('value'),
            eb.val(now).as('saved_at'),
          ])
          .where((eb) =>
            eb.exists(
              eb
                .selectFrom('attempts')
                .select('id')
                .where('id', '=', attemptId)
                .where('status', '=', IN_PROGRESS)
                .where('deadline', '>=', now),
            ),
          ),
      )
      .onConflict((oc) =>
        oc.columns(['attempt_id', 'question_id']).doUpdateSet((eb) => ({
          option_id: eb.ref('excluded.option_id'),
          value: eb.ref('excluded.value'),
          saved_at: eb.ref('excluded.saved_at'),
        })),
      ),
)

// SQLite only: a write statement takes the write lock before it reads, so no submit finishes the attempt between.
export async function upsertAnswerIfInProgress(
  db: Kysely<DB>,
  attemptId: number,
  questionId: number,
  optionId: number | null,
  now: number,
  value?: string | null,
) {
  // Every type takes the one statement (issue 77: a mixed autosave costs what a choice one does).
  const result = await insertOrReplaceAnswerIfInProgress(db, attemptId, questionId, optionId, value ?? null, now)
  return Number(result.numAffectedRows ?? 0) > 0
}

/** A choice answer; with `value` (JSON or null) an answer of another type or a clear, which sets `value` too. */
export type AnswerEntry = readonly [questionId: number, optionId: number | null, value?: string | null]

/** Whether every entry is a choice answer, which the one-statement paths below write (they leave `value` alone). */
export const onlyChoiceAnswers = (answers: readonly AnswerEntry[]) => answers.every((entry) => entry.length === 2)

/** An entry's answer as scoring reads it. */
export const entryAnswer = ([, optionId, value]: AnswerEntry): AnswerValue =>
  value === undefined ? optionId : value === null ? null : (JSON.parse(value) as AnswerValue)

// Answers of the new types (and clears): a plain upsert of both columns, in question order (no deadlock).
async function upsertAnswerValues(db: Kysely<DB>, attemptId: number, answers: readonly AnswerEntry[], now: number) {
  const rows = [...answers]
    .sort(([a], [b]) => a - b)
    .map(([questionId, optionId, value]) => ({
      ...answerValues(attemptId, questionId, optionId, now),
      value: value ?? null,
    }))
  await db
    .insertInto('attempt_answers')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['attempt_id', 'question_id']).doUpdateSet((eb) => ({
        option_id: eb.ref('excluded.option_id'),
        value: eb.ref('excluded.value'),
        saved_at: eb.ref('excluded.saved_at'),
      })),
    )
    .execute()
}

// PostgreSQL: a save in one statement and round trip; the CTE takes the attempt FOR SHARE, rows in question order.
// Its deadline is checked here too: a save may come with the attempt remembered from an earlier one (save-answers.ts).
const upsertAnswersIfInProgressSql = `with live as (
  select id, institute_id from attempts where id = $1 and status = 'in_progress' and deadline >= $4 for share
)
insert into attempt_answers (attempt_id, question_id, option_id, saved_at, institute_id)
select live.id, answer.question_id, answer.option_id, $4, live.institute_id
from live, unnest($2::integer[], $3::integer[]) as answer (question_id, option_id)
order by answer.question_id
on conflict (attempt_id, question_id) do update set option_id = excluded.option_id, saved_at = excluded.saved_at`
prepareOnPostgres(upsertAnswersIfInProgressSql)

// The same with answers of the new types or clears: `value` too (null for a choice answer, as upsertAnswerValues).
const upsertValuesIfInProgressSql = `with live as (
  select id, institute_id from attempts where id = $1 and status = 'in_progress' and deadline >= $4 for share
)
insert into attempt_answers (attempt_id, question_id, option_id, value, saved_at, institute_id)
select live.id, answer.question_id, answer.option_id, answer.value, $4, live.institute_id
from live, unnest($2::integer[], $3::integer[], $5::text[]) as answer (question_id, option_id, value)
order by answer.question_id
on conflict (attempt_id, question_id) do update
set option_id = excluded.option_id, value = excluded.value, saved_at = excluded.saved_at`
prepareOnPostgres(upsertValuesIfInProgressSql)

export async function upsertAnswersIfInProgressOnPostgres(
  db: Kysely<DB>,
  attemptId: number,
  answers: readonly AnswerEntry[],
  now: number,
) {
  const typed = !onlyChoiceAnswers(answers)
  const result = await db.executeQuery(
    CompiledQuery.raw(typed ? upsertValuesIfInProgressSql : upsertAnswersIfInProgressSql, [
      attemptId,
      answers.map(([questionId]) => questionId),
      answers.map(([, optionId]) => optionId),
      now,
      ...(typed ? [answers.map(([, , value]) => value ?? null)] : []),
    ]),
  )
  return Number(result.numAffectedRows ?? 0) > 0
}

// A batch in one statement compiled once, answers as one array or JSON; PostgreSQL in question order (no deadlock).
const upsertAnswerBatchOnPostgresSql = `insert into attempt_answers (attempt_id, question_id, option_id, saved_at, institute_id)
select $1, answer.question_id, answer.option_id, $4, $5::integer
from unnest($2::integer[], $3::integer[]) as answer (question_id, option_id)
order by answer.question_id
on conflict (attempt_id, question_id) do update set option_id = excluded.option_id, saved_at = excluded.saved_at`
prepareOnPostgres(upsertAnswerBatchOnPostgresSql)

const upsertAnswerBatchOnSqlite = precompile((db: Kysely<DB>, attemptId: number, answersJson: string, now: number) =>
  db
    .insertInto('attempt_answers')
    .columns(['attempt_id', 'question_id', 'option_id', 'saved_at'])
    .expression(
      db
        .selectFrom(sql<{ value: string }>`json_each(${answersJson})`.as('answer'))
        .select((eb) => [
          eb.val(attemptId).as('attempt_id'),
          sql<number>`answer.value ->> 0`.as('question_id'),
          sql<number | null>`answer.value ->> 1`.as('option_id'),
          eb.val(now).as('saved_at'),
        ])
        // SQLite reads "ON CONFLICT" after a bare "FROM ..." as a join's constraint: a WHERE settles it.
        .where(sql<boolean>`1 = 1`),
    )
    .onConflict((oc) =>
      oc.columns(['attempt_id', 'question_id']).doUpdateSet((eb) => ({
        option_id: eb.ref('excluded.option_id'),
        saved_at: eb.ref('excluded.saved_at'),
      })),
    ),
)

export async function upsertAnswers(db: Kysely<DB>, attemptId: number, answers: readonly AnswerEntry[], now: number) {
  if (answers.length === 0) return
  if (!onlyChoiceAnswers(answers)) {
    await upsertAnswerValues(db, attemptId, answers, now)
    return
  }
  if (answers.length === 1) {
    const [[questionId, optionId]] = answers as [readonly [number, number | null]]
    await insertOrReplaceAnswer(db, attemptId, questionId, optionId, now)
    return
  }
  if (!isPostgres(db)) {
    await upsertAnswerBatchOnSqlite(db, attemptId, JSON.stringify(answers), now)
    return
  }
  await db.executeQuery(
    CompiledQuery.raw(upsertAnswerBatchOnPostgresSql, [
      attemptId,
      answers.map(([questionId]) => questionId),
      answers.map(([, optionId]) => optionId),
      now,
      instituteOfNewRows(),
    ]),
  )
}

const selectAttemptInProgressForNoKeyUpdate = precompile((db: Kysely<DB>, attemptId: number) =>
  db.selectFrom('attempts').select('id').where('id', '=', attemptId).where('status', '=', IN_PROGRESS).forNoKeyUpdate(),
)

/** PostgreSQL: also serialises autosaves that add time, so two cannot both read the total under the cap. */
export async function isAttemptInProgressLocked(db: Kysely<DB>, attemptId: number) {
  const { rows } = await selectAttemptInProgressForNoKeyUpdate(db, attemptId)
  return rows.length > 0
}

const selectQuestionStates = precompile((db: Kysely<DB>, attemptId: number) =>
  db
    .selectFrom('attempt_question_states')
    .select(['question_id', 'marked', 'visited', 'time_spent'])
    .where('attempt_id', '=', attemptId),
)

export async function listQuestionStates(db: Kysely<DB>, attemptId: number) {
  return (await selectQuestionStates(db, attemptId)).rows
}

const selectTimeSpentTotal = precompile((db: Kysely<DB>, attemptId: number) =>
  db
    .selectFrom('attempt_question_states')
    .select((eb) => eb.fn.sum<number | string | null>('time_spent').as('total'))
    .where('attempt_id', '=', attemptId),
)

export async function sumTimeSpent(db: Kysely<DB>, attemptId: number) {
  const { rows } = await selectTimeSpentTotal(db, attemptId)
  // PostgreSQL's sum of integers is numeric (a string); SQLite's is an integer or null.
  return Number(rows[0]?.total ?? 0)
}

export interface QuestionStateChange {
  questionId: number
  marked?: boolean
  visited?: boolean
  seconds?: number
}

type StateRow = { attempt_id: number; question_id: number; marked: number; visited: number; time_spent: number }

function upsertStates(db: Kysely<DB>, rows: StateRow[], setsMark: boolean) {
  return db
    .insertInto('attempt_question_states')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['attempt_id', 'question_id']).doUpdateSet((eb) => ({
        ...(setsMark ? { marked: eb.ref('excluded.marked') } : {}),
        visited: eb
          .case()
          .when(eb.ref('excluded.visited'), '=', 1)
          .then(1)
          .else(eb.ref('attempt_question_states.visited'))
          .end(),
        time_spent: eb(eb.ref('attempt_question_states.time_spent'), '+', eb.ref('excluded.time_spent')),
      })),
    )
}

const oneStateUpsert = (setsMark: boolean) =>
  precompile(
    (db: Kysely<DB>, attemptId: number, questionId: number, marked: number, visited: number, seconds: number) =>
      upsertStates(
        db,
        [{ attempt_id: attemptId, question_id: questionId, marked, visited, time_spent: seconds }],
        setsMark,
      ),
  )
const upsertOneStateSettingMark = oneStateUpsert(true)
const upsertOneStateKeepingMark = oneStateUpsert(false)
const FEW_ROWS = 4

export async function upsertQuestionStates(db: Kysely<DB>, attemptId: number, changes: readonly QuestionStateChange[]) {
  // In question order, so two concurrent batches lock the same rows in the same order (no deadlock on PostgreSQL).
  const sorted = [...changes].sort((a, b) => a.questionId - b.questionId)
  for (const setsMark of [true, false]) {
    const rows: StateRow[] = sorted
      .filter((change) => (change.marked !== undefined) === setsMark)
      .map((change) => ({
        attempt_id: attemptId,
        question_id: change.questionId,
        marked: change.marked ? 1 : 0,
        visited: change.visited ? 1 : 0,
        time_spent: change.seconds ?? 0,
      }))
    if (rows.length === 0) continue
    if (rows.length > FEW_ROWS) {
      await upsertStates(db, rows, setsMark).execute()
      continue
    }
    const upsert = setsMark ? upsertOneStateSettingMark : upsertOneStateKeepingMark
    for (const row of rows) await upsert(db, attemptId, row.question_id, row.marked, row.visited, row.time_spent)
  }
}

export async function moveToSection(
  db: Kysely<DB>,
  attemptId: number,
  from: number,
  to: number,
  now: number,
  deadline: number,
) {
  const result = await db
    .updateTable('attempts')
    .set({ current_section: to, section_opened_at: now, deadline })
    .where('id', '=', attemptId)
    .where('status', '=', 'in_progress')
    .where('current_section', '<=', from)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

export function findAttemptById(db: Kysely<DB>, attemptId: number) {
  return db.selectFrom('attempts').selectAll().where('id', '=', attemptId).executeTakeFirst()
}

export async function movePaperAttempts(db: Kysely<DB>, sittingId: number, heldAt: number, deadline: number) {
  await db
    .updateTable('attempts')
    .set({ started_at: heldAt, finished_at: heldAt, deadline })
    .where('sitting_id', '=', sittingId)
    .where('mode', '=', 'paper')
    .execute()
}

export function listExpiredOfQuiz(
  db: Kysely<DB>,
  quizId: number,
  deadlineBefore: number,
  { lock = false, skipLocked = false, limit }: { lock?: boolean; skipLocked?: boolean; limit?: number } = {},
) {
  return db
    .selectFrom('attempts')
    .selectAll()
    .where('quiz_id', '=', quizId)
    .where('status', '=', IN_PROGRESS)
    .where('deadline', '<', deadlineBefore)
    .orderBy('id')
    .$if(limit !== undefined, (qb) => qb.limit(limit!))
    .$if(lock, (qb) => qb.forUpdate())
    .$if(lock && skipLocked, (qb) => qb.skipLocked())
    .execute()
}

export async function findLatestRunningRankedDeadline(db: Kysely<DB>, quizId: number) {
  const row = await db
    .selectFrom('attempts')
    .select((eb) => eb.fn.max('deadline').as('last'))
    .where('quiz_id', '=', quizId)
    .where('status', '=', IN_PROGRESS)
    .where('ranked', '=', 1)
    .executeTakeFirst()
  return row?.last == null ? null : Number(row.last)
}
