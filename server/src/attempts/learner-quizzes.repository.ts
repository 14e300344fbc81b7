import { sql, type Kysely } from 'kysely'
import type { AttemptRow, DB } from '../db/schema'
import { IN_PROGRESS } from '../db/in-progress'
import { learnerQuizColumns } from '../db/learner-quiz-columns'
import { precompile } from '../db/precompiled-query'

const quizColumns = [...learnerQuizColumns, 'q.draw_mode', 'q.frozen_draw', 'q.question_set_version'] as const

const selectQuiz = precompile((db: Kysely<DB>, quizId: number) =>
  db
    .selectFrom('quizzes as q')
    // What a paper is keyed by (decision 132), here so that a start or a submit reads it in no statement of its own.
    .innerJoin('institutes as i', (join) => join.on(sql<boolean>`${sql.ref('i.id')} = ${sql.ref('q.institute_id')}`))
    .select(quizColumns)
    .select('i.passages_version')
    .where('q.id', '=', quizId)
    .where('q.deleted_at', 'is', null)
    .where('q.status', '=', 'published'),
)

/** A quiz as the learner routes need it (never a deleted one, nor a draft: docs/decisions/048). */
export async function findQuizById(db: Kysely<DB>, quizId: number) {
  return (await selectQuiz(db, quizId)).rows[0]
}

/** A quiz as the learner routes read it, with its institute's passages version (what its papers are keyed by). */
export type LearnerQuiz = NonNullable<Awaited<ReturnType<typeof findQuizById>>>
export type LearnerQuizRow = Omit<LearnerQuiz, 'passages_version'>

/** A quiz as a paper sitting draws its paper from it: a draft too (printed before it is published), never a deleted one. */
export function findQuizForSitting(db: Kysely<DB>, quizId: number) {
  return db
    .selectFrom('quizzes as q')
    .select(quizColumns)
    .where('q.id', '=', quizId)
    .where('q.deleted_at', 'is', null)
    .executeTakeFirst()
}

const selectQuizWithAttemptInProgress = precompile((db: Kysely<DB>, quizId: number, userId: number) =>
  db
    .selectFrom('quizzes as q')
    .leftJoin('attempts as a', (join) =>
      join.onRef('a.quiz_id', '=', 'q.id').on('a.user_id', '=', userId).on('a.status', '=', IN_PROGRESS),
    )
    // What the attempt's cached paper is keyed by, in this read rather than a statement of its own (decision 132).
    .innerJoin('institutes as i', (join) => join.on(sql<boolean>`${sql.ref('i.id')} = ${sql.ref('q.institute_id')}`))
    .select([
      'i.passages_version',
      'q.start_time',
      'q.end_time',
      'a.id as attempt_id',
      'a.deadline',
      'a.started_at',
      'a.revision_ids',
      'a.option_order',
      'a.sections',
      'a.current_section',
      'a.section_opened_at',
    ])
    .where('q.id', '=', quizId)
    .where('q.deleted_at', 'is', null)
    .where('q.status', '=', 'published'),
)

export async function findQuizWithAttemptInProgress(db: Kysely<DB>, quizId: number, userId: number) {
  return (await selectQuizWithAttemptInProgress(db, quizId, userId)).rows[0]
}

const selectExtraTimePercent = precompile((db: Kysely<DB>, userId: number) =>
  db.selectFrom('users').select('extra_time_percent').where('id', '=', userId),
)

export async function findExtraTimePercent(db: Kysely<DB>, userId: number) {
  return (await selectExtraTimePercent(db, userId)).rows[0]?.extra_time_percent ?? 0
}

/** The learner uses a screen reader (decision 114): read where a paper is drawn outside the start's own read. */
export async function findScreenReader(db: Kysely<DB>, userId: number) {
  const row = await db.selectFrom('users').select('screen_reader').where('id', '=', userId).executeTakeFirst()
  return row?.screen_reader === 1
}

// Extra time and attempts in one statement: on exam day every statement of a start counts.
const selectAttemptsWithExtraTime = precompile((db: Kysely<DB>, userId: number, quizId: number) =>
  db
    .selectFrom('users as u')
    .leftJoin('attempts as a', (join) => join.onRef('a.user_id', '=', 'u.id').on('a.quiz_id', '=', quizId))
    .select(['u.extra_time_percent', 'u.screen_reader'])
    .selectAll('a')
    .where('u.id', '=', userId)
    .orderBy('a.attempt_number'),
)

export async function findAttemptsWithExtraTime(db: Kysely<DB>, userId: number, quizId: number) {
  const { rows } = await selectAttemptsWithExtraTime(db, userId, quizId)
  // Kept as it came: a rest-pattern copy made a new object shape every start, paid in garbage collection.
  const attempts = rows.filter((row) => row.id !== null) as AttemptRow[]
  return { attempts, extraTimePercent: rows[0]?.extra_time_percent ?? 0, screenReader: rows[0]?.screen_reader === 1 }
}

const selectLearnerForNoKeyUpdate = precompile((db: Kysely<DB>, userId: number) =>
  db.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate(),
)

/** PostgreSQL: serialises a learner's attempt writes; NO KEY UPDATE spares the key-share locks of inserts. */
export async function lockLearner(db: Kysely<DB>, userId: number) {
  await selectLearnerForNoKeyUpdate(db, userId)
}
