import { createUser } from './factories'
import type { TestApp } from './test-app'

export const createMarker = (t: Pick<TestApp, 'database'>) => createUser(t.database, { is_marker: 1 })

/** A photographed page of the answer, stored as the learner's side stores it. */
export async function addPage(t: Pick<TestApp, 'db'>, answerId: number, number = 1) {
  const hash = `${answerId}-${number}`.padEnd(64, '0')
  await t.db
    .insertInto('page_images')
    .values({ hash, data: Buffer.from('page'), content_type: 'image/webp', width: 1600, height: 2200, created_at: 0 })
    .execute()
  const row = await t.db
    .insertInto('written_answer_pages')
    .values({ answer_id: answerId, number, image_hash: hash, annotations: null, created_at: 0 })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** Every string in `value`, however deep. */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(stringsIn)
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn)
  return []
}

/** Hands the answer to the marker as `next` does (a live claim of 10 minutes), without `next`'s shuffled order. */
export async function handTo(t: Pick<TestApp, 'db' | 'clock'>, answerId: number, markerId: number) {
  await t.db
    .updateTable('written_answers')
    .set({ claimed_by: markerId, claimed_until: t.clock.now() + 10 * 60_000 })
    .where('id', '=', answerId)
    .execute()
}
