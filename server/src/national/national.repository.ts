import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'

// The deployment's tables of national mocks (docs/decisions/102): read and written with no institute's filter.

export type NationalMockRow = Awaited<ReturnType<typeof findMock>> & object

export async function insertMock(db: Kysely<DB>, values: Omit<DB['national_mocks'], 'id'> & object) {
  const row = await db
    .insertInto('national_mocks')
    .values(values as never)
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export function findMock(db: Kysely<DB>, id: number) {
  return db.selectFrom('national_mocks').selectAll().where('id', '=', id).executeTakeFirst()
}

export function listMocks(db: Kysely<DB>) {
  return db.selectFrom('national_mocks').selectAll().orderBy('live_starts_at', 'desc').orderBy('id', 'desc').execute()
}

/** The institutes taking part in these mocks, with their quizzes. */
export function listTakers(db: Kysely<DB>, mockIds: readonly number[]) {
  if (mockIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('national_takers as t')
    .innerJoin('institutes as i', 'i.id', 't.institute_id')
    .select(['t.national_mock_id', 't.institute_id', 't.quiz_id', 'i.slug', 'i.name_en'])
    .where('t.national_mock_id', 'in', mockIds)
    .orderBy('t.institute_id')
    .execute()
}

/** The mocks one institute takes part in, with its quiz of each. */
export function listTakingPart(db: Kysely<DB>, instituteId: number) {
  return db
    .selectFrom('national_takers')
    .select(['national_mock_id', 'quiz_id'])
    .where('institute_id', '=', instituteId)
    .execute()
}

export function findTaker(db: Kysely<DB>, mockId: number, instituteId: number) {
  return db
    .selectFrom('national_takers')
    .select(['quiz_id'])
    .where('national_mock_id', '=', mockId)
    .where('institute_id', '=', instituteId)
    .executeTakeFirst()
}

export async function insertTaker(db: Kysely<DB>, row: DB['national_takers']) {
  await db.insertInto('national_takers').values(row).execute()
}

export async function deleteTaker(db: Kysely<DB>, mockId: number, instituteId: number) {
  await db
    .deleteFrom('national_takers')
    .where('national_mock_id', '=', mockId)
    .where('institute_id', '=', instituteId)
    .execute()
  await db
    .deleteFrom('national_entries')
    .where('national_mock_id', '=', mockId)
    .where('institute_id', '=', instituteId)
    .execute()
}

/** English names of institutes, for the national board's pseudonyms. */
export async function instituteNames(db: Kysely<DB>, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, string>()
  const rows = await db.selectFrom('institutes').select(['id', 'name_en']).where('id', 'in', ids).execute()
  return new Map(rows.map((row) => [row.id, row.name_en]))
}
