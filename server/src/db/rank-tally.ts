import { sql, type Kysely, type SqlBool } from 'kysely'
import type { DB } from './schema'

/**
 * Whether the attempt aliased `alias` is its learner's counted one at its quiz: the lowest-numbered of their ranked
 * attempts, counted in the quiz's rank tally once it is finished. Online attempts are numbered in the order they
 * start and a paper attempt takes the next number when it is recorded, so this is the first attempt the learner
 * sat (online, or on paper) that the server knew of; a live mock's learner has one ranked attempt at most
 * (docs/decisions/014, 056). Attempt number 1 needs no look-up; a later one looks at the unique (user, quiz, number)
 * index. Written once here, as IN_PROGRESS is, because the attempts, results, reports, challenges and live
 * repositories must all agree on it.
 */
export const isCountedAttempt = (alias: string) =>
  sql<SqlBool>`(${sql.ref(`${alias}.ranked`)} = 1 and (${sql.ref(`${alias}.attempt_number`)} = 1 or not exists (
    select 1 from attempts earlier
    where earlier.user_id = ${sql.ref(`${alias}.user_id`)} and earlier.quiz_id = ${sql.ref(`${alias}.quiz_id`)}
      and earlier.ranked = 1 and earlier.attempt_number < ${sql.ref(`${alias}.attempt_number`)}
  )))`

/**
 * Counts the quiz's rank tally afresh from its counted finished attempts: after anything that changes which attempt
 * is counted or removes one (a live schedule moved, a paper attempt deleted or recorded again), in its transaction.
 */
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
