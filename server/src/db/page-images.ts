import type { Kysely } from 'kysely'
import type { DB } from './schema'

/** Keeps a page's image once by its hash: written answers' pages and booklet pages share `page_images`. */
export async function savePageImage(
  db: Kysely<DB>,
  image: { hash: string; data: Buffer; content_type: string; width: number; height: number; phone_data: Buffer | null },
  now: number,
) {
  await db
    .insertInto('page_images')
    .values({ ...image, created_at: now })
    .onConflict((conflict) => conflict.column('hash').doNothing())
    .execute()
}
