import { createHash, randomBytes } from 'node:crypto'
import { expect } from 'vitest'
import type { Database } from '../src/db/database'
import { pageBytes, phoneBytes } from '../src/db/page-images'
import type { FileStore } from '../src/files'
import type { OlderTables } from './migration-database'

// Rows of every kind of file as a server of before the file store (migration 0052) wrote them: bytes in the row.

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex')
const bytes = (n: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(n)])

/** An older server's rows of every kind of file; what each should read as once moved. */
export async function fillAsBefore(
  db: OlderTables,
  insert: (table: string, values: Record<string, unknown>) => Promise<number>,
) {
  const user = await insert('users', {
    username: 'sita',
    username_key: 'sita',
    phone_number: '9800000001',
    password_hash: 'x',
    created_at: 0,
  })
  const quiz = await insert('quizzes', {
    title_en: 'Mock',
    title_ne: 'Mock',
    start_time: 0,
    duration_minutes: 90,
    allowed_attempts: 1,
    difficulty: 'medium',
    created_at: 0,
  })
  const sitting = await insert('sittings', {
    quiz_id: quiz,
    title_en: 'Sitting',
    held_at: 0,
    revision_ids: '[]',
    sets: '[]',
    created_at: 0,
  })
  const expected: { table: string; id: string | number; data: Buffer; phone?: Buffer }[] = []
  for (let i = 0; i < 7; i++) {
    const hash = `${i}`
      .repeat(64)
      .slice(0, 64)
      .replace(/[^0-9]/g, 'a')
    const data = bytes(200)
    await db
      .insertInto('pictures')
      .values({ hash, data, width: 1, height: 1, pixels_hash: sha256(data), created_at: 0, keyed: 1 })
      .execute()
    expected.push({ table: 'pictures', id: hash, data })
  }
  for (let i = 0; i < 5; i++) {
    const data = bytes(300)
    const phone = i % 2 === 0 ? bytes(100) : null
    const hash = sha256(data)
    await db
      .insertInto('page_images')
      .values({ hash, data, content_type: 'image/jpeg', width: 1, height: 1, phone_data: phone, created_at: 0 })
      .execute()
    expected.push({ table: 'page_images', id: hash, data, ...(phone ? { phone } : {}) })
  }
  for (let i = 0; i < 3; i++) {
    const id = `pp${i}`.padEnd(24, 'x')
    const data = bytes(150)
    await db
      .insertInto('profile_pictures')
      .values({ id, user_id: user, content_type: 'image/webp', data, created_at: 0 })
      .execute()
    expected.push({ table: 'profile_pictures', id, data })
  }
  for (let i = 0; i < 4; i++) {
    const photo = bytes(250)
    const scan = await insert('sitting_scans', {
      sitting_id: sitting,
      sheet: `R${i}`,
      status: 'needs_review',
      answers: '{}',
      flags: '[]',
      photo,
      photo_type: 'image/jpeg',
      created_at: 0,
      updated_at: 0,
    })
    expected.push({ table: 'sitting_scans', id: scan, data: photo })
    const earlier = bytes(250)
    const photoId = await insert('scan_photos', {
      scan_id: scan,
      photo: earlier,
      photo_type: 'image/jpeg',
      replaced_at: 0,
    })
    expected.push({ table: 'scan_photos', id: photoId, data: earlier })
  }
  return expected
}

/** Every file reads back, through the same readers the app uses, as the bytes the older server kept. */
export async function expectAllReadable(
  database: Database,
  files: FileStore,
  expected: Awaited<ReturnType<typeof fillAsBefore>>,
) {
  const db = database.db
  for (const file of expected) {
    if (file.table === 'pictures') {
      const row = await db
        .selectFrom('pictures')
        .select(['data_key', 'data_size'])
        .where('hash', '=', String(file.id))
        .executeTakeFirstOrThrow()
      expect(await files.get(row.data_key!)).toEqual(file.data)
      expect(row.data_size).toBe(file.data.length)
    } else if (file.table === 'page_images') {
      const row = await db
        .selectFrom('page_images')
        .selectAll()
        .where('hash', '=', String(file.id))
        .executeTakeFirstOrThrow()
      expect(await pageBytes(files, row)).toEqual(file.data)
      expect(await phoneBytes(files, row)).toEqual(file.phone)
    } else if (file.table === 'profile_pictures') {
      const row = await db
        .selectFrom('profile_pictures')
        .selectAll()
        .where('id', '=', String(file.id))
        .executeTakeFirstOrThrow()
      expect(await files.get(row.data_key!)).toEqual(file.data)
      expect(row.data_hash).toBe(sha256(file.data))
    } else {
      const table = file.table as 'sitting_scans' | 'scan_photos'
      const row = await db
        .selectFrom(table)
        .select(['photo_key', 'photo_size', 'photo_hash'])
        .where('id', '=', Number(file.id))
        .executeTakeFirstOrThrow()
      expect(await files.get(row.photo_key!)).toEqual(file.data)
      expect(row).toMatchObject({ photo_size: file.data.length, photo_hash: sha256(file.data) })
    }
  }
}
