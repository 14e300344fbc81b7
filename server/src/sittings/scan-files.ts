import { createHash, randomBytes } from 'node:crypto'
import type { FileStore } from '../files'

// A scan's photo lives in the file store (docs/decisions/105). Its name is the photo's hash and a random part, one
// file per upload: the photo history (scan_photos) names the same file as the scan it came from, and removing a scan
// removes exactly its own files, with no count of other rows (which row security would hide on PostgreSQL).

const NO_BYTES = Buffer.alloc(0)

/** Writes the photo to the store before the transaction that records it; the row's columns for it. */
export async function storeScanPhoto(files: FileStore, data: Buffer, type: string) {
  const hash = createHash('sha256').update(data).digest('hex')
  const key = `scans/${hash}-${randomBytes(6).toString('hex')}`
  // A write that failed may still have landed (an answer lost on its way back): its fresh name is no row's.
  await files.put(key, data, type).catch(async (error: unknown) => {
    await files.delete(key).catch(() => {})
    throw error
  })
  return { photo: NO_BYTES, photo_key: key, photo_size: data.length, photo_hash: hash }
}

/**
 * Runs `record` with the photo stored; if it fails, the file is removed again: no row names a fresh random name, so
 * a refused or failed upload keeps nothing.
 */
export async function withStoredScanPhoto<T>(
  files: FileStore,
  photo: { data: Buffer; type: string },
  record: (stored: Awaited<ReturnType<typeof storeScanPhoto>>) => Promise<T>,
): Promise<T> {
  const stored = await storeScanPhoto(files, photo.data, photo.type)
  try {
    return await record(stored)
  } catch (error) {
    await files.delete(stored.photo_key).catch(() => {})
    throw error
  }
}

/** The photo's bytes: from the store, or from its row for a photo kept before the store; undefined if gone. */
export async function scanPhotoBytes(files: FileStore, row: { photo: Buffer; photo_key: string | null }) {
  return row.photo_key === null ? Buffer.from(row.photo) : files.get(row.photo_key)
}

/** Removes files whose rows are gone for good; one that will not go is left for the sweep. */
export async function deleteScanFiles(files: FileStore, keys: readonly string[]) {
  for (const key of new Set(keys)) await files.delete(key).catch(() => {})
}
