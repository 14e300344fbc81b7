import { sql, type Kysely } from 'kysely'
import type { AttemptSelection } from '@quiz/contracts'
import type { Dialect } from '../db/database'
import { inParts } from '../db/in-parts'
import { isCountedAttempt } from '../outcomes/counted-attempt.repository'
import type { DB } from '../db/schema'

export function findReportableQuiz(db: Kysely<DB>, quizId: number) {
  return db
    .selectFrom('quizzes')
    .select(['id', 'title_en'])
    .where('id', '=', quizId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
}

export function listCurrentQuestions(db: Kysely<DB>, quizId: number) {
  return db
    .selectFrom('paper_items as i')
    .innerJoin('paper_sections as s', 's.id', 'i.section_id')
    .innerJoin('questions as q', 'q.id', 'i.question_id')
    .innerJoin('question_revisions as r', 'r.id', 'q.revision_id')
    .select(['q.id', 'q.revision_id', 'r.text_en', 'r.text_ne', 'r.topic', 'r.maths', 'r.type', 'r.marks'])
    .where('i.quiz_id', '=', quizId)
    .where('q.deleted_at', 'is', null)
    .orderBy('s.position')
    .orderBy('s.id')
    .orderBy('i.position')
    .orderBy('i.id')
    .execute() as Promise<
    {
      id: number
      revision_id: number
      text_en: string
      text_ne: string
      topic: string
      maths: string | null
      type: 'choice' | 'multiple' | 'numeric' | 'written'
      marks: number | null
    }[]
  >
}

// Deleted questions' options too: old attempts answered them. Letters and item scores of any attempt come from this.
export function listAllOptions(db: Kysely<DB>, quizId: number) {
  return db
    .selectFrom('question_options as o')
    .innerJoin('question_revisions as r', 'r.id', 'o.revision_id')
    .select(['o.id', 'o.revision_id', 'o.text_en', 'o.text_ne', 'o.is_correct', 'o.maths'])
    .where((eb) =>
      eb.or([
        eb('r.question_id', 'in', eb.selectFrom('paper_items').select('question_id').where('quiz_id', '=', quizId)),
        eb(
          'r.question_id',
          'in',
          eb
            .selectFrom('attempt_answers as aa')
            .innerJoin('attempts as a', 'a.id', 'aa.attempt_id')
            .select('aa.question_id')
            .where('a.quiz_id', '=', quizId),
        ),
      ]),
    )
    .orderBy('o.revision_id')
    .orderBy('o.position')
    .execute()
}

const attemptColumns = [
  'id',
  'user_id',
  'attempt_number',
  'started_at',
  'finished_at',
  'score_hundredths',
  'correct',
  'incorrect',
  'unanswered',
  'late',
  'mode',
  'sections',
  'revision_ids',
] as const

// "first" is the counted attempt (outcomes/counted-attempt.repository.ts); `final`: written part released (API.md).
function chosenAttempts(db: Kysely<DB>, quizId: number, which: AttemptSelection, { final = false } = {}) {
  if (which === 'first')
    return db.selectFrom(
      db
        .selectFrom('attempts as a')
        .select(attemptColumns.map((column) => `a.${column}` as const))
        .select(sql<number>`1`.as('pick'))
        .where('a.quiz_id', '=', quizId)
        .where('a.status', '=', 'finished')
        .where(isCountedAttempt('a'))
        .as('c'),
    )
  const ranked = db
    .selectFrom('attempts')
    .select(attemptColumns)
    .select(
      sql<number>`row_number() over (partition by user_id order by score_hundredths desc, finished_at asc, attempt_number asc)`.as(
        'pick',
      ),
    )
    .where('quiz_id', '=', quizId)
    .where('status', '=', 'finished')
    .$if(final, (query) => query.where('marks_pending', '=', 0))
  return db.selectFrom(ranked.as('c')).$if(which !== 'all', (query) => query.where('c.pick', '=', 1))
}

/** The admin's attempts table's count, unrun: db/institute-indexes.test.ts explains it as the server sends it. */
export const countChosenAttemptsQuery = (db: Kysely<DB>, quizId: number, which: AttemptSelection) =>
  chosenAttempts(db, quizId, which).select((eb) => eb.fn.countAll<number>().as('n'))

export async function countChosenAttempts(db: Kysely<DB>, quizId: number, which: AttemptSelection) {
  const row = await countChosenAttemptsQuery(db, quizId, which).executeTakeFirstOrThrow()
  return Number(row.n)
}

const reportColumns = [
  'c.id',
  'c.user_id',
  'c.attempt_number',
  'c.started_at',
  'c.finished_at',
  'c.score_hundredths',
  'c.correct',
  'c.incorrect',
  'c.unanswered',
  'c.late',
  'c.mode',
  'u.username',
  'u.full_name',
  'u.phone_number',
] as const

/** A page of the admin's attempts table, unrun: db/institute-indexes.test.ts explains it as the server sends it. */
export function pageChosenAttemptsQuery(
  db: Kysely<DB>,
  quizId: number,
  which: AttemptSelection,
  { limit, offset }: { limit: number; offset: number },
) {
  return chosenAttempts(db, quizId, which)
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select(reportColumns)
    .orderBy('c.score_hundredths', 'desc')
    .orderBy('c.finished_at', 'asc')
    .orderBy('c.id', 'asc')
    .limit(limit)
    .offset(offset)
}

export function pageChosenAttempts(...args: Parameters<typeof pageChosenAttemptsQuery>) {
  return pageChosenAttemptsQuery(...args).execute()
}

export type ReportAttemptRow = Awaited<ReturnType<typeof pageChosenAttempts>>[number]

/** Only the ids, in the report's order: what the CSV export holds in memory while it streams the rest in batches. */
export async function listChosenAttemptIds(db: Kysely<DB>, quizId: number, which: AttemptSelection) {
  const rows = await chosenAttempts(db, quizId, which)
    .select('c.id')
    .orderBy('c.score_hundredths', 'desc')
    .orderBy('c.finished_at', 'asc')
    .orderBy('c.id', 'asc')
    .execute()
  return rows.map((row) => row.id)
}

export function findAttemptsWithLearners(db: Kysely<DB>, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([])
  return db
    .selectFrom('attempts as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select(reportColumns)
    .where('c.id', 'in', ids)
    .execute()
}

// `picks` is "questionId:optionId,...": one small string per attempt instead of a hundred rows keeps the CSV's memory low.
export function listAnswerPicksOfAttempts(db: Kysely<DB>, dialect: Dialect, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([])
  const picks =
    dialect === 'postgres'
      ? sql<string>`string_agg(question_id::text || ':' || option_id::text, ',')`
      : sql<string>`group_concat(question_id || ':' || option_id, ',')`
  return db
    .selectFrom('attempt_answers')
    .select(['attempt_id', picks.as('picks')])
    .where('attempt_id', 'in', ids)
    .where('option_id', 'is not', null)
    .groupBy('attempt_id')
    .execute()
}

/** Multiple and numeric answers (API.md "Question types"): `value` is JSON, option ids or the typed number. */
export function listAnswerValuesOfAttempts(db: Kysely<DB>, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([])
  return db
    .selectFrom('attempt_answers')
    .select(['attempt_id', 'question_id', 'value'])
    .where('attempt_id', 'in', ids)
    .where('value', 'is not', null)
    .execute() as Promise<{ attempt_id: number; question_id: number; value: string }[]>
}

export function listChosenScores(db: Kysely<DB>, quizId: number, which: AttemptSelection) {
  return chosenAttempts(db, quizId, which, { final: true })
    .select(['c.id', 'c.score_hundredths', 'c.sections', 'c.revision_ids'])
    .orderBy('c.id')
    .execute()
}

// Joined, not an `in` list: 5,000 attempts would pass SQLite's parameter limit.
export function listAnswersOfChosenAttempts(db: Kysely<DB>, quizId: number, which: AttemptSelection) {
  return chosenAttempts(db, quizId, which, { final: true })
    .innerJoin('attempt_answers as aa', 'aa.attempt_id', 'c.id')
    .select(['aa.attempt_id', 'aa.question_id', 'aa.option_id'])
    .where('aa.option_id', 'is not', null)
    .execute() as Promise<{ attempt_id: number; question_id: number; option_id: number }[]>
}

/** The chosen attempts' multiple and numeric answers (`value`: JSON option ids or the typed number). */
export function listValueAnswersOfChosenAttempts(db: Kysely<DB>, quizId: number, which: AttemptSelection) {
  return chosenAttempts(db, quizId, which, { final: true })
    .innerJoin('attempt_answers as aa', 'aa.attempt_id', 'c.id')
    .select(['aa.attempt_id', 'aa.question_id', 'aa.value'])
    .where('aa.value', 'is not', null)
    .execute() as Promise<{ attempt_id: number; question_id: number; value: string }[]>
}

export async function findQuestionsOfRevisions(db: Kysely<DB>, revisionIds: readonly number[]) {
  const found = new Map<number, number>()
  for (const part of inParts(revisionIds)) {
    const rows = await db
      .selectFrom('question_revisions')
      .select(['id', 'question_id'])
      .where('id', 'in', part)
      .execute()
    for (const row of rows) found.set(row.id, row.question_id)
  }
  return found
}

export async function listWrittenMarksOfChosenAttempts(db: Kysely<DB>, quizId: number, which: AttemptSelection) {
  const rows = await chosenAttempts(db, quizId, which, { final: true })
    .innerJoin('written_answers as w', 'w.attempt_id', 'c.id')
    .innerJoin('question_revisions as r', 'r.id', 'w.revision_id')
    .select('w.question_id')
    .select((eb) => [
      eb.fn.countAll<number>().as('marked'),
      eb.fn.sum<number>('w.score_hundredths').as('gained'),
      eb.fn.sum<number>('r.marks').as('possible'),
    ])
    .where('w.status', '=', 'released')
    .groupBy('w.question_id')
    .execute()
  return new Map(
    rows.map((row) => [
      row.question_id,
      { marked: Number(row.marked), gained: Number(row.gained ?? 0), possible: Number(row.possible ?? 0) },
    ]),
  )
}

export function listWrittenMarksOfAttempts(db: Kysely<DB>, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([])
  return db
    .selectFrom('written_answers')
    .select(['attempt_id', 'question_id', 'score_hundredths'])
    .where('attempt_id', 'in', ids)
    .where('status', 'in', ['marked', 'released'])
    .execute()
}
