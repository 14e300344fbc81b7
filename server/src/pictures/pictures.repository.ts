import { sql, type Kysely } from 'kysely'
import { inParts } from '../db/in-parts'
import type { DB } from '../db/schema'
import type { StoredPicture } from './picture-files'

/** `used`: the request's institute uses them (picture_uses); false for a platform admin's, recorded by `useIn`. */
export async function savePictures(
  db: Kysely<DB>,
  pictures: readonly StoredPicture[],
  now: number,
  used = true,
): Promise<void> {
  for (const picture of pictures) {
    await db
      .insertInto('pictures')
      .values({
        hash: picture.hash,
        data: picture.data,
        data_key: picture.data_key,
        data_size: picture.data_size,
        width: picture.width,
        height: picture.height,
        pixels_hash: picture.pixelsHash,
        created_at: now,
        keyed: 1,
      })
      .onConflict((conflict) => conflict.column('hash').doNothing())
      .execute()
  }
  if (used)
    await recordPictureUses(
      db,
      pictures.map((picture) => picture.hash),
    )
}

/** The request's institute stored or uses these pictures: their URLs answer on its hosts (decision 100). */
export async function recordPictureUses(db: Kysely<DB>, hashes: readonly string[]): Promise<void> {
  if (hashes.length === 0) return
  await db
    .insertInto('picture_uses')
    .values([...new Set(hashes)].map((hash) => ({ hash })))
    // Keyed by (hash, institute) and the institute is the filter's: no target can name it.
    .onConflict((conflict) => conflict.doNothing())
    .execute()
}

/** Whether the request's institute (the filter's) stored or uses the picture. */
export async function isPictureUsed(db: Kysely<DB>, hash: string): Promise<boolean> {
  return (await db.selectFrom('picture_uses').select('hash').where('hash', '=', hash).executeTakeFirst()) !== undefined
}

// `used`: only those the request's institute stored or uses, so another's picture cannot be named by its URL.
export async function findPictureSizes(db: Kysely<DB>, hashes: readonly string[], used: boolean) {
  if (hashes.length === 0) return new Map<string, { width: number; height: number }>()
  const rows = await db
    .selectFrom('pictures')
    .select(['hash', 'width', 'height'])
    .where('hash', 'in', [...new Set(hashes)])
    .$if(used, (query) =>
      query.where((eb) =>
        eb.exists(eb.selectFrom('picture_uses as u').select('u.hash').whereRef('u.hash', '=', 'pictures.hash')),
      ),
    )
    .execute()
  return new Map(rows.map((row) => [row.hash, { width: row.width, height: row.height }]))
}

export async function findPicturesByPixels(db: Kysely<DB>, pixelsHashes: readonly string[]) {
  if (pixelsHashes.length === 0) return new Map<string, { hash: string; width: number; height: number }>()
  const rows = await db
    .selectFrom('pictures')
    .select(['hash', 'width', 'height', 'pixels_hash'])
    .where('pixels_hash', 'in', [...new Set(pixelsHashes)])
    .execute()
  return new Map(rows.map(({ pixels_hash, ...picture }) => [pixels_hash, picture]))
}

// Only under its keyed name: a row still named by its plain hash (migration 0021) is served once renamed.
export async function findPictureData(db: Kysely<DB>, hash: string) {
  return db
    .selectFrom('pictures')
    .select(['data', 'data_key'])
    .where('hash', '=', hash)
    .where('keyed', '=', 1)
    .executeTakeFirst()
}

/** Which of `hashes` have a row: a file stored for one that has none is removed again. */
export async function findRecordedPictures(db: Kysely<DB>, hashes: readonly string[]): Promise<Set<string>> {
  const recorded = new Set<string>()
  for (const part of inParts([...new Set(hashes)])) {
    const rows = await db.selectFrom('pictures').select('hash').where('hash', 'in', part).execute()
    for (const row of rows) recorded.add(row.hash)
  }
  return recorded
}

export async function findUnkeyedPictures(db: Kysely<DB>): Promise<string[]> {
  const rows = await db.selectFrom('pictures').select('hash').where('keyed', '=', 0).execute()
  return rows.map((row) => row.hash)
}

// Copied, everything naming it moved (in each institute, docs/decisions/098), then removed (the name may exist
// already); a second renamer finds nothing, and one stopped half-way is finished by the next.
export async function findPictureRow(db: Kysely<DB>, hash: string) {
  return db.selectFrom('pictures').selectAll().where('hash', '=', hash).executeTakeFirst()
}

/** The row of `from` under the name `to`, its file already written under `to`'s key. */
export async function copyPicture(
  db: Kysely<DB>,
  from: NonNullable<Awaited<ReturnType<typeof findPictureRow>>>,
  to: { hash: string; data: Buffer; data_key: string; data_size: number },
): Promise<void> {
  await db
    .insertInto('pictures')
    .values({
      hash: to.hash,
      data: to.data,
      data_key: to.data_key,
      data_size: to.data_size,
      width: from.width,
      height: from.height,
      pixels_hash: from.pixels_hash,
      created_at: from.created_at,
      keyed: 1,
    })
    .onConflict((conflict) => conflict.column('hash').doNothing())
    .execute()
}

export async function movePictureReferences(db: Kysely<DB>, from: string, to: string): Promise<void> {
  for (const table of ['question_revisions', 'question_options', 'passages'] as const)
    await db.updateTable(table).set({ image_picture: to }).where('image_picture', '=', from).execute()
  // Every institute's use, outside any institute's scope (the sweeper's): raw, as no feature names institute_id.
  await sql`insert into picture_uses (hash, institute_id) select ${to}, institute_id from picture_uses
    where hash = ${from} on conflict do nothing`.execute(db)
  await db.deleteFrom('picture_uses').where('hash', '=', from).execute()
  // A dry run's rows hold the picture's url; both names are 64 hex digits, nothing in them is special to LIKE.
  await db
    .updateTable('imports')
    .set({ rows: sql<string>`replace(rows, ${from}, ${to})` })
    .where('rows', 'like', `%${from}%`)
    .execute()
}

export async function deletePicture(db: Kysely<DB>, hash: string): Promise<void> {
  await db.deleteFrom('pictures').where('hash', '=', hash).execute()
}

/** Pictures made before `before`, a page of them after `after` in hash order. */
export async function findPicturesMadeBefore(db: Kysely<DB>, before: number, after: string, limit: number) {
  const rows = await db
    .selectFrom('pictures')
    .select('hash')
    .where('created_at', '<', before)
    .where('hash', '>', after)
    .orderBy('hash')
    .limit(limit)
    .execute()
  return rows.map((row) => row.hash)
}

/** Which of `hashes` the running scope's institute names: its questions, options and unexpired dry runs. */
export async function findPicturesNamed(db: Kysely<DB>, hashes: readonly string[], now: number) {
  const named = new Set<string>()
  for (const table of ['question_revisions', 'question_options', 'passages'] as const) {
    const rows = await db.selectFrom(table).select('image_picture').where('image_picture', 'in', hashes).execute()
    for (const row of rows) if (row.image_picture) named.add(row.image_picture)
  }
  const dryRuns = await db.selectFrom('imports').select('rows').where('expires_at', '>', now).execute()
  for (const hash of hashes) if (dryRuns.some((run) => run.rows.includes(hash))) named.add(hash)
  return named
}

// Nor one an unexpired dry run names: its commit would otherwise name a deleted picture, nor an institute's logo.
// On PostgreSQL another institute's rows are beyond row security here: the caller passes only what none names.
export async function deleteUnusedPictures(
  db: Kysely<DB>,
  hashes: readonly string[],
  before: number,
  now: number,
): Promise<{ hash: string; data_key: string | null }[]> {
  if (hashes.length === 0) return []
  const rows = await db
    .deleteFrom('pictures')
    .where('hash', 'in', hashes)
    .where('created_at', '<', before)
    .where((eb) =>
      eb.not(
        eb.or([
          eb.exists(
            eb
              .selectFrom('question_revisions')
              .select('id')
              .whereRef('question_revisions.image_picture', '=', 'pictures.hash'),
          ),
          eb.exists(
            eb
              .selectFrom('question_options')
              .select('id')
              .whereRef('question_options.image_picture', '=', 'pictures.hash'),
          ),
          // A bank passage's picture (docs/decisions/117).
          eb.exists(eb.selectFrom('passages').select('id').whereRef('passages.image_picture', '=', 'pictures.hash')),
          // An institute's logo (docs/decisions/097, 099).
          eb.exists(eb.selectFrom('institutes').select('id').whereRef('institutes.logo_hash', '=', 'pictures.hash')),
          eb.exists(
            eb
              .selectFrom('imports')
              .select('id')
              .where('expires_at', '>', now)
              .where('rows', 'like', sql<string>`'%' || pictures.hash || '%'`),
          ),
        ]),
      ),
    )
    .returning(['hash', 'data_key'])
    .execute()
  const deleted = rows.map((row) => row.hash)
  // The uses this scope sees (on PostgreSQL none: a use left behind names a picture that is gone, read as unknown).
  for (const part of inParts(deleted)) await db.deleteFrom('picture_uses').where('hash', 'in', part).execute()
  return rows
}
