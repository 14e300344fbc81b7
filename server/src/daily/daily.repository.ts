import type { Kysely, Selectable } from 'kysely'
import type { Dialect } from '../db/database'
import { inParts } from '../db/in-parts'
import type { DailyDayTable, DailySettingsTable, DB, NewQuizRow } from '../db/schema'

export type DailySettingsRow = Selectable<DailySettingsTable>
export type DailyDayRow = Selectable<DailyDayTable>

export function findSettings(db: Kysely<DB>) {
  return db.selectFrom('daily_settings').selectAll().executeTakeFirst()
}

export async function saveSettings(db: Kysely<DB>, values: Omit<DailySettingsRow, 'institute_id'>) {
  const updated = await db.updateTable('daily_settings').set(values).executeTakeFirst()
  if (Number(updated.numUpdatedRows) === 0) await db.insertInto('daily_settings').values(values).execute()
}

export function findDay(db: Kysely<DB>, day: string) {
  return db.selectFrom('daily_days').selectAll().where('day', '=', day).executeTakeFirst()
}

/** The day's row, locked against another process's publication (PostgreSQL; SQLite writes one at a time). */
export function lockDay(db: Kysely<DB>, dialect: Dialect, day: string) {
  let query = db.selectFrom('daily_days').selectAll().where('day', '=', day)
  if (dialect === 'postgres') query = query.forUpdate()
  return query.executeTakeFirst()
}

/** The claim: a row for the day exists once, whichever process makes it first (its primary key). */
export async function ensureDay(db: Kysely<DB>, day: string) {
  await db
    .insertInto('daily_days')
    .values({ day, question_ids: null, quiz_id: null, published_at: null })
    .onConflict((oc) => oc.doNothing())
    .execute()
}

export async function fixDay(db: Kysely<DB>, day: string, questionIds: readonly number[]) {
  await ensureDay(db, day)
  await db
    .updateTable('daily_days')
    .set({ question_ids: JSON.stringify(questionIds), fixed: 1 })
    .where('day', '=', day)
    .where('published_at', 'is', null)
    .execute()
}

export async function markPublished(
  db: Kysely<DB>,
  day: string,
  questionIds: readonly number[],
  quizId: number,
  now: number,
) {
  await db
    .updateTable('daily_days')
    .set({ question_ids: JSON.stringify(questionIds), quiz_id: quizId, published_at: now })
    .where('day', '=', day)
    .execute()
}

export function listDays(db: Kysely<DB>, from: string, to: string) {
  return db
    .selectFrom('daily_days')
    .selectAll()
    .where('day', '>=', from)
    .where('day', '<=', to)
    .orderBy('day')
    .execute()
}

/** Published days up to `to`, oldest first: the streak's calendar. */
export async function publishedDays(db: Kysely<DB>, to: string): Promise<string[]> {
  const rows = await db
    .selectFrom('daily_days')
    .select('day')
    .where('published_at', 'is not', null)
    .where('day', '<=', to)
    .orderBy('day')
    .execute()
  return rows.map((row) => row.day)
}

/** Live choice questions of the bank matching any topic or any tag (all of them when neither is given). */
export async function poolOf(db: Kysely<DB>, topics: readonly string[], tags: readonly string[]): Promise<number[]> {
  const lowerTags = tags.map((tag) => tag.toLowerCase())
  const rows = await db
    .selectFrom('questions as q')
    .innerJoin('question_revisions as r', 'r.id', 'q.revision_id')
    .select('q.id')
    .where('q.deleted_at', 'is', null)
    .where('q.national_mock_id', 'is', null)
    .where('r.type', '=', 'choice')
    .$if(topics.length + tags.length > 0, (query) =>
      query.where((eb) =>
        eb.or([
          ...(topics.length > 0 ? [eb('r.topic', 'in', [...topics])] : []),
          ...(lowerTags.length > 0
            ? [
                eb.exists(
                  eb
                    .selectFrom('question_tags as qt')
                    .innerJoin('tags as t', 't.id', 'qt.tag_id')
                    .select('qt.question_id')
                    .whereRef('qt.question_id', '=', 'q.id')
                    .where('t.name_key', 'in', lowerTags),
                ),
              ]
            : []),
        ]),
      ),
    )
    .orderBy('q.id')
    .execute()
  return rows.map((row) => row.id)
}

/** Question ids used by published days from `from` on, with the last day each was used. */
export async function recentlyUsed(db: Kysely<DB>, from: string): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('daily_days')
    .select(['day', 'question_ids'])
    .where('day', '>=', from)
    .where('published_at', 'is not', null)
    .orderBy('day')
    .execute()
  const used = new Map<number, string>()
  for (const row of rows) for (const id of JSON.parse(row.question_ids ?? '[]') as number[]) used.set(id, row.day)
  return used
}

export async function liveChoiceQuestions(db: Kysely<DB>, ids: readonly number[]): Promise<Set<number>> {
  const live = new Set<number>()
  for (const part of inParts(ids)) {
    const rows = await db
      .selectFrom('questions as q')
      .innerJoin('question_revisions as r', 'r.id', 'q.revision_id')
      .select('q.id')
      .where('q.id', 'in', part)
      .where('q.deleted_at', 'is', null)
      .where('q.national_mock_id', 'is', null)
      .where('r.type', '=', 'choice')
      .execute()
    for (const row of rows) live.add(row.id)
  }
  return live
}

export async function questionsOf(db: Kysely<DB>, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, { id: number; text: string; topic: string | null }>()
  const rows = await db
    .selectFrom('questions as q')
    .innerJoin('question_revisions as r', 'r.id', 'q.revision_id')
    .select(['q.id', 'r.text_en', 'r.text_ne', 'r.topic'])
    .where('q.id', 'in', [...ids])
    .execute()
  return new Map(rows.map((row) => [row.id, { id: row.id, text: row.text_en || row.text_ne, topic: row.topic }]))
}

/** Each daily quiz's first finished attempts: how many, and their mean score (hundredths). */
export async function attemptFigures(db: Kysely<DB>, quizIds: readonly number[]) {
  if (quizIds.length === 0) return new Map<number, { attempts: number; mean: number | null }>()
  const rows = await db
    .selectFrom('attempts')
    .select((eb) => [
      'quiz_id',
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.avg<number | string | null>('score_hundredths').as('mean'),
    ])
    .where('quiz_id', 'in', [...quizIds])
    .where('status', '=', 'finished')
    .where('attempt_number', '=', 1)
    .groupBy('quiz_id')
    .execute()
  return new Map(
    rows.map((row) => [row.quiz_id, { attempts: Number(row.n), mean: row.mean === null ? null : Number(row.mean) }]),
  )
}

/** The learner's first attempt at a quiz, finished or not. */
export function firstAttempt(db: Kysely<DB>, userId: number, quizId: number) {
  return db
    .selectFrom('attempts')
    .select(['id', 'status', 'score_hundredths', 'sections', 'revision_ids'])
    .where('user_id', '=', userId)
    .where('quiz_id', '=', quizId)
    .where('attempt_number', '=', 1)
    .executeTakeFirst()
}

/**
 * The Nepal days whose daily set the learner finished within that day: a daily quiz ends at its day's midnight, so
 * any finished attempt at it was finished by then (the submit grace aside, which `finished_at` is checked against).
 */
export async function finishedDailyDays(db: Kysely<DB>, userId: number) {
  return db
    .selectFrom('attempts as a')
    .innerJoin('quizzes as z', 'z.id', 'a.quiz_id')
    .select(['z.daily_date', 'a.finished_at'])
    .where('a.user_id', '=', userId)
    .where('a.status', '=', 'finished')
    .where('z.daily_date', 'is not', null)
    .execute()
}

/** Learners of this institute whose reminder hour has come today, not reminded today, who have not finished the set. */
export async function dueReminders(
  db: Kysely<DB>,
  {
    institute,
    day,
    quizId,
    clock,
    limit,
  }: { institute: number; day: string; quizId: number; clock: string; limit: number },
) {
  return db
    .selectFrom('users as u')
    .innerJoin('memberships as m', 'm.user_id', 'u.id')
    .select(['u.id', 'u.preferred_language'])
    .where('u.daily_reminder', 'is not', null)
    .where('u.daily_reminder', '<=', clock)
    .where('m.institute_id', '=', institute)
    .where('m.is_learner', '=', 1)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('daily_reminders as d')
            .select('d.user_id')
            .whereRef('d.user_id', '=', 'u.id')
            .where('d.day', '=', day),
        ),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('attempts as a')
            .select('a.id')
            .whereRef('a.user_id', '=', 'u.id')
            .where('a.quiz_id', '=', quizId)
            .where('a.status', '=', 'finished'),
        ),
      ),
    )
    .orderBy('u.id')
    .limit(limit)
    .execute()
}

/** Claims today's reminder of these learners; those another process claimed first are left out. */
export async function claimReminders(db: Kysely<DB>, userIds: readonly number[], day: string, now: number) {
  if (userIds.length === 0) return []
  const rows = await db
    .insertInto('daily_reminders')
    .values(userIds.map((user_id) => ({ user_id, day, sent_at: now })))
    .onConflict((oc) => oc.doNothing())
    .returning('user_id')
    .execute()
  return rows.map((row) => row.user_id)
}

/** The day's quiz and its one section of fixed questions; the triggers count its questions. */
export async function insertDayQuiz(
  db: Kysely<DB>,
  quiz: NewQuizRow,
  marks: { marks_correct: number; marks_wrong: number },
  questionIds: readonly number[],
) {
  const { id } = await db.insertInto('quizzes').values(quiz).returning('id').executeTakeFirstOrThrow()
  const section = await db
    .insertInto('paper_sections')
    .values({ quiz_id: id, position: 1, title_en: '', title_ne: '', ...marks, time_limit_minutes: null })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('paper_items')
    .values(
      questionIds.map((question_id, i) => ({
        quiz_id: id,
        section_id: section.id,
        position: i + 1,
        question_id,
        draw_topic: null,
        draw_tags: null,
        draw_difficulty: null,
        draw_source: null,
        draw_count: null,
      })),
    )
    .execute()
  return id
}

export function dayQuiz(db: Kysely<DB>, quizId: number) {
  return db
    .selectFrom('quizzes as z')
    .innerJoin('paper_sections as s', 's.quiz_id', 'z.id')
    .select(['z.question_count', 'z.duration_minutes', 's.marks_correct'])
    .where('z.id', '=', quizId)
    .executeTakeFirst()
}

export async function boardNames(db: Kysely<DB>, userIds: readonly number[]) {
  if (userIds.length === 0)
    return new Map<number, { username: string; full_name: string; show_on_leaderboards: number }>()
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username', 'full_name', 'show_on_leaderboards'])
    .where('id', 'in', [...new Set(userIds)])
    .execute()
  return new Map(rows.map((row) => [row.id, row]))
}
