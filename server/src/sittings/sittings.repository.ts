import type { Insertable, Kysely, Updateable } from 'kysely'
import type { DB, SittingScanTable, SittingTable } from '../db/schema'

export async function insertSitting(db: Kysely<DB>, row: Insertable<SittingTable>) {
  const inserted = await db.insertInto('sittings').values(row).returning('id').executeTakeFirstOrThrow()
  return Number(inserted.id)
}

const sittingColumns = [
  's.id',
  's.quiz_id',
  's.title_en',
  's.title_ne',
  's.held_at',
  's.option_labels',
  's.status',
  's.revision_ids',
  's.sections',
  's.sets',
  's.booklet_pages',
  'q.duration_minutes',
  'q.live_starts_at',
  'q.title_en as quiz_title_en',
] as const

/** A sitting with the quiz fields its attempts need; `lock` (PostgreSQL) holds it while scans are recorded. */
export function findSitting(db: Kysely<DB>, sittingId: number, { lock = false } = {}) {
  return db
    .selectFrom('sittings as s')
    .innerJoin('quizzes as q', 'q.id', 's.quiz_id')
    .select(sittingColumns)
    .where('s.id', '=', sittingId)
    .$if(lock, (query) => query.forUpdate('s'))
    .executeTakeFirst()
}

export type SittingRow = NonNullable<Awaited<ReturnType<typeof findSitting>>>

export function listSittings(db: Kysely<DB>, quizId: number) {
  return db
    .selectFrom('sittings as s')
    .innerJoin('quizzes as q', 'q.id', 's.quiz_id')
    .select(sittingColumns)
    .where('s.quiz_id', '=', quizId)
    .orderBy('s.held_at', 'desc')
    .orderBy('s.id', 'desc')
    .execute()
}

export async function countSittingParts(db: Kysely<DB>, sittingIds: readonly number[]) {
  const counts = new Map(sittingIds.map((id) => [id, { roster: 0, recorded: 0, needs_review: 0 }]))
  if (sittingIds.length === 0) return counts
  const roster = await db
    .selectFrom('sitting_roster')
    .select(['sitting_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('sitting_id', 'in', sittingIds)
    .groupBy('sitting_id')
    .execute()
  for (const row of roster) counts.get(row.sitting_id)!.roster = Number(row.n)
  const scans = await db
    .selectFrom('sitting_scans')
    .select(['sitting_id', 'status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('sitting_id', 'in', sittingIds)
    .groupBy(['sitting_id', 'status'])
    .execute()
  for (const row of scans) counts.get(row.sitting_id)![row.status] = Number(row.n)
  return counts
}

export async function updateSitting(db: Kysely<DB>, sittingId: number, fields: Updateable<SittingTable>) {
  await db.updateTable('sittings').set(fields).where('id', '=', sittingId).execute()
}

export async function deleteSitting(db: Kysely<DB>, sittingId: number) {
  await db.deleteFrom('sittings').where('id', '=', sittingId).execute()
}

export async function countScans(db: Kysely<DB>, sittingId: number, status: SittingScanTable['status']) {
  const row = await db
    .selectFrom('sitting_scans')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('sitting_id', '=', sittingId)
    .where('status', '=', status)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export function listRoster(db: Kysely<DB>, sittingId: number) {
  return db
    .selectFrom('sitting_roster as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.roll_number', 'r.set_letter', 'u.id as user_id', 'u.username', 'u.full_name'])
    .where('r.sitting_id', '=', sittingId)
    .orderBy('r.roll_number')
    .execute()
}

export type RosterRow = Awaited<ReturnType<typeof listRoster>>[number]

export function findRosterEntry(db: Kysely<DB>, sittingId: number, rollNumber: number) {
  return db
    .selectFrom('sitting_roster as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.roll_number', 'r.set_letter', 'u.id as user_id', 'u.username', 'u.full_name'])
    .where('r.sitting_id', '=', sittingId)
    .where('r.roll_number', '=', rollNumber)
    .executeTakeFirst()
}

export function findRosterPlaceOf(db: Kysely<DB>, sittingId: number, userId: number) {
  return db
    .selectFrom('sitting_roster')
    .select(['roll_number', 'set_letter', 'user_id'])
    .where('sitting_id', '=', sittingId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
}

/** The roster places of learners a recorded scan of the sitting names. */
export function listRecordedPlaces(db: Kysely<DB>, sittingId: number) {
  return db
    .selectFrom('sitting_roster as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.roll_number', 'r.user_id', 'u.username'])
    .where('r.sitting_id', '=', sittingId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('sitting_scans as sc')
          .select('sc.id')
          .whereRef('sc.sitting_id', '=', 'r.sitting_id')
          .whereRef('sc.user_id', '=', 'r.user_id')
          .where('sc.status', '=', 'recorded'),
      ),
    )
    .orderBy('r.roll_number')
    .execute()
}

export async function replaceRoster(
  db: Kysely<DB>,
  sittingId: number,
  entries: readonly { userId: number; rollNumber: number; set: string }[],
) {
  await db.deleteFrom('sitting_roster').where('sitting_id', '=', sittingId).execute()
  for (let i = 0; i < entries.length; i += 500)
    await db
      .insertInto('sitting_roster')
      .values(
        entries.slice(i, i + 500).map((entry) => ({
          sitting_id: sittingId,
          user_id: entry.userId,
          roll_number: entry.rollNumber,
          set_letter: entry.set,
        })),
      )
      .execute()
}

export function findUsersByUsernameKeys(db: Kysely<DB>, keys: readonly string[]) {
  if (keys.length === 0) return Promise.resolve([])
  return db
    .selectFrom('users')
    .select(['id', 'username_key', 'phone_number'])
    .where('username_key', 'in', keys)
    .execute()
}

export function findUsersByPhones(db: Kysely<DB>, phones: readonly string[]) {
  if (phones.length === 0) return Promise.resolve([])
  return db
    .selectFrom('users')
    .select(['id', 'username_key', 'phone_number'])
    .where('phone_number', 'in', phones)
    .execute()
}

const scanColumns = [
  'sc.id',
  'sc.sitting_id',
  'sc.sheet',
  'sc.status',
  'sc.roll_number',
  'sc.set_letter',
  'sc.user_id',
  'sc.answers',
  'sc.flags',
  'sc.attempt_id',
  'u.username',
  'u.full_name',
  'a.score_hundredths',
] as const

function scansWithLearners(db: Kysely<DB>) {
  return db
    .selectFrom('sitting_scans as sc')
    .leftJoin('users as u', 'u.id', 'sc.user_id')
    .leftJoin('attempts as a', 'a.id', 'sc.attempt_id')
    .select(scanColumns)
}

export function findScan(db: Kysely<DB>, scanId: number, { lock = false } = {}) {
  return scansWithLearners(db)
    .where('sc.id', '=', scanId)
    .$if(lock, (query) => query.forUpdate('sc'))
    .executeTakeFirst()
}

export type ScanRow = NonNullable<Awaited<ReturnType<typeof findScan>>>

/** The scans of a sheet: `sheet` itself and the copies of a photocopied blank one (`B5/2`, ...). */
export function findScansOfSheet(db: Kysely<DB>, sittingId: number, sheet: string, { lock = false } = {}) {
  return scansWithLearners(db)
    .where('sc.sitting_id', '=', sittingId)
    .where((eb) => eb.or([eb('sc.sheet', '=', sheet), eb('sc.sheet', 'like', `${sheet}/%`)]))
    .orderBy('sc.id')
    .$if(lock, (query) => query.forUpdate('sc'))
    .execute()
}

export function listScans(db: Kysely<DB>, sittingId: number, status?: SittingScanTable['status']) {
  return scansWithLearners(db)
    .where('sc.sitting_id', '=', sittingId)
    .$if(status !== undefined, (query) => query.where('sc.status', '=', status!))
    .orderBy('sc.id')
    .execute()
}

/** Another scan of the sitting recorded for this learner (a blank sheet and their own, say), if any. */
export function findRecordedScanOf(db: Kysely<DB>, sittingId: number, userId: number, exceptScanId: number | null) {
  return db
    .selectFrom('sitting_scans')
    .select(['id', 'roll_number'])
    .where('sitting_id', '=', sittingId)
    .where('user_id', '=', userId)
    .where('status', '=', 'recorded')
    .$if(exceptScanId !== null, (query) => query.where('id', '!=', exceptScanId!))
    .executeTakeFirst()
}

export async function insertScan(db: Kysely<DB>, row: Insertable<SittingScanTable>) {
  const inserted = await db.insertInto('sitting_scans').values(row).returning('id').executeTakeFirstOrThrow()
  return Number(inserted.id)
}

export async function updateScan(db: Kysely<DB>, scanId: number, fields: Updateable<SittingScanTable>) {
  await db.updateTable('sitting_scans').set(fields).where('id', '=', scanId).execute()
}

export async function deleteScan(db: Kysely<DB>, scanId: number) {
  await db.deleteFrom('sitting_scans').where('id', '=', scanId).execute()
}

export function findScanPhoto(db: Kysely<DB>, scanId: number) {
  return db
    .selectFrom('sitting_scans')
    .select(['photo', 'photo_key', 'photo_type'])
    .where('id', '=', scanId)
    .executeTakeFirst()
}

/** Copies a scan's photo into its history before a new one replaces it; the copy's id. */
export async function keepScanPhoto(db: Kysely<DB>, scanId: number, replacedAt: number, replacedBy: number) {
  const kept = await db
    .insertInto('scan_photos')
    .columns([
      'scan_id',
      'photo',
      'photo_key',
      'photo_size',
      'photo_hash',
      'photo_type',
      'scanned_by',
      'replaced_at',
      'replaced_by',
    ])
    .expression((eb) =>
      eb
        .selectFrom('sitting_scans')
        .select((inner) => [
          'id',
          'photo',
          'photo_key',
          'photo_size',
          'photo_hash',
          'photo_type',
          'scanned_by',
          inner.cast<number>(inner.val(replacedAt), 'bigint').as('replaced_at'),
          inner.cast<number>(inner.val(replacedBy), 'integer').as('replaced_by'),
        ])
        .where('id', '=', scanId),
    )
    .returning('id')
    .executeTakeFirstOrThrow()
  return Number(kept.id)
}

export function findEarlierScanPhoto(db: Kysely<DB>, scanId: number, photoId: number) {
  return db
    .selectFrom('scan_photos')
    .select(['photo', 'photo_key', 'photo_type'])
    .where('id', '=', photoId)
    .where('scan_id', '=', scanId)
    .executeTakeFirst()
}

export function findLearnerSheetPhoto(db: Kysely<DB>, attemptId: number, userId: number) {
  return db
    .selectFrom('sitting_scans as sc')
    .innerJoin('attempts as a', 'a.id', 'sc.attempt_id')
    .select(['sc.photo', 'sc.photo_key', 'sc.photo_type'])
    .where('sc.attempt_id', '=', attemptId)
    .where('a.user_id', '=', userId)
    .where('a.mode', '=', 'paper')
    .executeTakeFirst()
}

/** The file names of a scan and of its earlier photos, read before their rows go. */
export async function scanFileKeys(db: Kysely<DB>, scanId: number) {
  const rows = await db
    .selectFrom('sitting_scans')
    .select('photo_key')
    .where('id', '=', scanId)
    .unionAll(db.selectFrom('scan_photos').select('photo_key').where('scan_id', '=', scanId))
    .execute()
  return rows.map((row) => row.photo_key).filter((key): key is string => key !== null)
}
