import { sql, type Kysely, type SqlBool } from 'kysely'
import type { DB } from './schema'

// The counted attempt is the learner's lowest-numbered ranked one; written once, as every repository must agree on it
// (docs/decisions/014 "In the code").
export const isCountedAttempt = (alias: string) =>
  sql<SqlBool>`(${sql.ref(`${alias}.ranked`)} = 1 and (${sql.ref(`${alias}.attempt_number`)} = 1 or not exists (
    select 1 from attempts earlier
    where earlier.user_id = ${sql.ref(`${alias}.user_id`)} and earlier.quiz_id = ${sql.ref(`${alias}.quiz_id`)}
      and earlier.ranked = 1 and earlier.attempt_number < ${sql.ref(`${alias}.attempt_number`)}
  )))`

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
