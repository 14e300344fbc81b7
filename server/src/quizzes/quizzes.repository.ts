import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { IN_PROGRESS } from '../db/in-progress'
import { learnerQuizColumns } from '../db/learner-quiz-columns'
import { precompile } from '../db/precompiled-query'

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

// The quiz's fields of a learner's list; the attempt's own reads keep theirs (attempts/learner-quizzes.repository.ts).
const quizColumns = [...learnerQuizColumns, 'q.challenge_days'] as const

// The learner's attempts read once, grouped by quiz, rather than point lookups per quiz: the lookups' plan on
// PostgreSQL read each quiz's attempts of every learner at 1,000 institutes (docs/decisions/133).
const selectActiveQuizzesForLearner = precompile((db: Kysely<DB>, userId: number, now: number) =>
  db
    .selectFrom('quizzes as q')
    // The learner's membership of the quiz's institute, by its key: the admin role and paid access there (decisions
    // 096, 103); memberships are the account's rows, so the filter adds nothing and the join names the institute.
    .leftJoin('memberships as m', (join) =>
      join.on('m.user_id', '=', userId).on(sql<boolean>`${sql.ref('m.institute_id')} = ${sql.ref('q.institute_id')}`),
    )
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('attempts')
          .select([
            'attempts.quiz_id',
            // What the online limit counts: paper attempts use none up (API.md "Paper sittings").
            sql<number>`sum(case when ${sql.ref('attempts.mode')} = 'online' then 1 else 0 end)`.as('attempt_count'),
            sql<
              number | null
            >`max(case when ${sql.ref('attempts.status')} = ${IN_PROGRESS} then ${sql.ref('attempts.deadline')} end)`.as(
              'in_progress_deadline',
            ),
            sql<number | null>`max(${sql.ref('attempts.ranked')})`.as('ranked'),
          ])
          .where('attempts.user_id', '=', userId)
          .groupBy('attempts.quiz_id')
          .as('mine'),
      (join) => join.onRef('mine.quiz_id', '=', 'q.id'),
    )
    .select(quizColumns)
    .select(['m.is_admin', 'm.paid_access_until', 'q.question_count', 'q.question_set_version'])
    .select(['mine.attempt_count', 'mine.in_progress_deadline'])
    .select((eb) => [
      // Live mocks only (a CASE evaluates its subquery only for them): registered, and a ranked attempt started.
      sql<number | null>`case when ${sql.ref('q.live_starts_at')} is null then null else (${eb
        .selectFrom('live_registrations as r')
        .select(sql.lit(1).as('one'))
        .whereRef('r.quiz_id', '=', 'q.id')
        .where('r.user_id', '=', userId)}) end`.as('registered'),
      sql<number | null>`case when ${sql.ref('mine.ranked')} = 1 then 1 end`.as('has_ranked_attempt'),
    ])
    .where('q.deleted_at', 'is', null)
    .where('q.status', '=', 'published')
    // Active, or a live mock from its announcement until its challenge window closes (API.md "Live mocks").
    .where((eb) =>
      eb.or([
        eb.and([eb('q.start_time', '<=', now), eb.or([eb('q.end_time', 'is', null), eb('q.end_time', '>', now)])]),
        eb.and([
          eb('q.live_starts_at', 'is not', null),
          eb(
            // bigint arithmetic: 60 days of milliseconds overflow PostgreSQL's integer.
            sql`${sql.ref('q.live_starts_at')} + cast(${sql.ref('q.duration_minutes')} as bigint) * ${sql.lit(MINUTE)} + cast(${sql.ref('q.challenge_days')} as bigint) * ${sql.lit(DAY)}`,
            '>',
            now,
          ),
        ]),
      ]),
    )
    .orderBy('q.start_time', 'desc')
    .orderBy('q.id', 'desc'),
)

export async function listActiveQuizzesForLearner(db: Kysely<DB>, userId: number, now: number) {
  const { rows } = await selectActiveQuizzesForLearner(db, userId, now)
  // count(*) is bigint on PostgreSQL: typed here, in place, since a 16-field spread per row showed in the profile.
  for (const row of rows) row.attempt_count = Number(row.attempt_count ?? 0)
  return rows as (Omit<(typeof rows)[number], 'attempt_count'> & { attempt_count: number })[]
}
