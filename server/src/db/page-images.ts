import type { Kysely } from 'kysely'
import type { FileStore } from '../files'
import { PHONE_TYPE } from '../lib/page-renditions'
import type { DB } from './schema'

// A page's image, kept once by its hash: written answers' pages and booklet pages share `page_images`. The files live
// in the file store under names made of the hash; the row keeps the names and sizes (docs/decisions/105).

/** What a row says of a page kept before the file store: its bytes are still in the row. */
const NO_BYTES = Buffer.alloc(0)

export const pageKey = (hash: string) => `pages/${hash}`
export const phoneKey = (hash: string) => `pages/${hash}-phone`

export interface PageImage {
  /** sha256 of `data`, hex. */
  hash: string
  data: Buffer
  content_type: string
  width: number
  height: number
  phone_data: Buffer | null
}

export type StoredPageImage = ReturnType<typeof storedPageImage>

/** The row of a page image whose files are in the store. */
function storedPageImage(image: PageImage) {
  return {
    hash: image.hash,
    content_type: image.content_type,
    width: image.width,
    height: image.height,
    data: NO_BYTES,
    data_key: pageKey(image.hash),
    data_size: image.data.length,
    phone_data: null,
    phone_key: image.phone_data ? phoneKey(image.hash) : null,
    phone_size: image.phone_data?.length ?? null,
  }
}

/** Records a stored page image; one already recorded by its hash stays as it is. */
export async function savePageImage(db: Kysely<DB>, image: StoredPageImage, now: number) {
  await db
    .insertInto('page_images')
    .values({ ...image, created_at: now })
    .onConflict((conflict) => conflict.column('hash').doNothing())
    .execute()
}

/**
 * Stores the images, then runs `record`; if it fails, the files no row came to name are removed again, so a failed
 * upload leaves neither a half-written record nor a file of its own behind.
 */
export async function withStoredPages<T>(
  files: FileStore,
  db: Kysely<DB>,
  images: readonly PageImage[],
  record: (stored: StoredPageImage[]) => Promise<T>,
): Promise<T> {
  const stored: StoredPageImage[] = []
  try {
    // Written before the transaction that records them: a store write holds no lock. The same photo twice is the
    // same name, so a second write is harmless. Each image counts as stored before its writes, so that a page's file
    // written before its rendition's write failed (or a write that failed but landed) is removed again too.
    for (const image of images) {
      stored.push(storedPageImage(image))
      await files.put(pageKey(image.hash), image.data, image.content_type)
      if (image.phone_data) await files.put(phoneKey(image.hash), image.phone_data, PHONE_TYPE)
    }
    return await record(stored)
  } catch (error) {
    await discardUnrecorded(files, db, stored).catch(() => {})
    throw error
  }
}

async function discardUnrecorded(files: FileStore, db: Kysely<DB>, stored: readonly StoredPageImage[]) {
  if (stored.length === 0) return
  const recorded = await db
    .selectFrom('page_images')
    .select('hash')
    .where(
      'hash',
      'in',
      stored.map((image) => image.hash),
    )
    .execute()
  const kept = new Set(recorded.map((row) => row.hash))
  for (const image of stored) if (!kept.has(image.hash)) await deletePageFiles(files, [image])
}

/** Removes the files of page images whose rows are gone; a file that will not go is left for the sweep. */
export async function deletePageFiles(
  files: FileStore,
  images: readonly { data_key: string | null; phone_key: string | null }[],
) {
  for (const image of images)
    for (const key of [image.data_key, image.phone_key]) if (key !== null) await files.delete(key).catch(() => {})
}

/** The page's bytes: from the store, or from its row for a page kept before the store; undefined if gone. */
export async function pageBytes(files: FileStore, image: { data: Buffer; data_key: string | null }) {
  return image.data_key === null ? Buffer.from(image.data) : files.get(image.data_key)
}

/** The phone rendition's bytes, if the page has one yet, wherever it is kept. */
export async function phoneBytes(files: FileStore, image: { phone_data: Buffer | null; phone_key: string | null }) {
  if (image.phone_key !== null) return files.get(image.phone_key)
  return image.phone_data === null ? undefined : Buffer.from(image.phone_data)
}

/** Keeps a rendition made on request; another request that made it first keeps its own. */
export async function savePhoneRendition(files: FileStore, db: Kysely<DB>, hash: string, data: Buffer) {
  await files.put(phoneKey(hash), data, PHONE_TYPE)
  await db
    .updateTable('page_images')
    .set({ phone_key: phoneKey(hash), phone_size: data.length })
    .where('hash', '=', hash)
    .where('phone_key', 'is', null)
    .where('phone_data', 'is', null)
    .execute()
}
