import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { isCountedAttempt } from './counted-attempt.repository'

// docs/decisions/102: a national mock's board across institutes. Row security shows a request only its institute's
// attempts, so each institute's counted scores are copied into a table of the deployment's whenever that institute's
// own board of the copy is written (storeBoard and a late finish below its cutoff): the national board reads only it.

const CHUNK = 500

/** Replaces the entries of the institute whose copy `quizId` is; nothing for a quiz that copies no national mock. */
export async function syncNationalEntries(trx: Kysely<DB>, quizId: number): Promise<void> {
  const taker = await trx
    .selectFrom('national_takers')
    .select(['national_mock_id', 'institute_id'])
    .where('quiz_id', '=', quizId)
    .executeTakeFirst()
  if (!taker) return
  const rows = await trx
    .selectFrom('attempts as a')
    .select(['a.user_id', 'a.score_hundredths'])
    .where('a.quiz_id', '=', quizId)
    .where('a.status', '=', 'finished')
    .where(isCountedAttempt('a'))
    .execute()
  await trx
    .deleteFrom('national_entries')
    .where('national_mock_id', '=', taker.national_mock_id)
    .where('institute_id', '=', taker.institute_id)
    .execute()
  for (let at = 0; at < rows.length; at += CHUNK) {
    await trx
      .insertInto('national_entries')
      .values(
        rows.slice(at, at + CHUNK).map((row) => ({
          national_mock_id: taker.national_mock_id,
          institute_id: taker.institute_id,
          user_id: row.user_id,
          score_hundredths: row.score_hundredths ?? 0,
        })),
      )
      .execute()
  }
}

export interface NationalEntry {
  institute_id: number
  user_id: number
  score_hundredths: number
}

/** The top entries across institutes (ties with the last one kept), highest first. */
export async function nationalTop(db: Kysely<DB>, mockId: number, size: number): Promise<NationalEntry[]> {
  const query = (atLeast?: number) =>
    db
      .selectFrom('national_entries')
      .select(['institute_id', 'user_id', 'score_hundredths'])
      .where('national_mock_id', '=', mockId)
      .$if(atLeast !== undefined, (qb) => qb.where('score_hundredths', '>=', atLeast!))
      .orderBy('score_hundredths', 'desc')
      .orderBy('institute_id')
      .orderBy('user_id')
  const rows = await query().limit(size).execute()
  return rows.length === size ? query(rows.at(-1)!.score_hundredths).execute() : rows
}

export async function countNationalEntries(db: Kysely<DB>, mockId: number): Promise<number> {
  const row = await db
    .selectFrom('national_entries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('national_mock_id', '=', mockId)
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}

/** A learner's entry with how many scored above and below it nationally. */
export async function nationalStanding(db: Kysely<DB>, mockId: number, instituteId: number, userId: number) {
  const mine = await db
    .selectFrom('national_entries')
    .select('score_hundredths')
    .where('national_mock_id', '=', mockId)
    .where('institute_id', '=', instituteId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!mine) return null
  const row = await db
    .selectFrom('national_entries')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('participants'),
      eb.fn
        .sum<number | string | null>(
          eb.case().when('score_hundredths', '>', mine.score_hundredths).then(1).else(0).end(),
        )
        .as('above'),
      eb.fn
        .sum<number | string | null>(
          eb.case().when('score_hundredths', '<', mine.score_hundredths).then(1).else(0).end(),
        )
        .as('below'),
    ])
    .where('national_mock_id', '=', mockId)
    .executeTakeFirstOrThrow()
  return {
    score: mine.score_hundredths,
    participants: Number(row.participants),
    above: Number(row.above ?? 0),
    below: Number(row.below ?? 0),
  }
}

/**
 * National ranks of the given scores in one read: each distinct national score at or above the lowest asked, with
 * how many entries scored it (a score's rank is 1 + the entries above it).
 */
export async function nationalRanksOf(db: Kysely<DB>, mockId: number, scores: readonly number[]) {
  const ranks = new Map<number, number>()
  if (scores.length === 0) return ranks
  const lowest = Math.min(...scores)
  const rows = await db
    .selectFrom('national_entries')
    .select((eb) => ['score_hundredths', eb.fn.countAll<number | string>().as('n')])
    .where('national_mock_id', '=', mockId)
    .where('score_hundredths', '>=', lowest)
    .groupBy('score_hundredths')
    .orderBy('score_hundredths', 'desc')
    .execute()
  let above = 0
  for (const row of rows) {
    ranks.set(row.score_hundredths, above + 1)
    above += Number(row.n)
  }
  return ranks
}
