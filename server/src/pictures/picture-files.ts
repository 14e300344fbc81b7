import type { FileStore } from '../files'
import type { EncodedPicture } from './picture-encoding'

// A question's picture lives in the file store under its keyed name (docs/decisions/105, 112): the row keeps the
// name and size. The name is the content's keyed hash, so a second store of the same picture writes the same file.

export const PICTURE_TYPE = 'image/webp'

/** What a row says of a picture whose bytes are in the file store. */
const NO_BYTES = Buffer.alloc(0)

export const pictureFileKey = (hash: string) => `pictures/${hash}`

export type StoredPicture = Omit<EncodedPicture, 'data'> & { data: Buffer; data_key: string; data_size: number }

/** Writes the picture's file, before the statement that records it: a store's latency holds no database lock. */
export async function storePictureFile(files: FileStore, picture: EncodedPicture): Promise<StoredPicture> {
  await files.put(pictureFileKey(picture.hash), picture.data, PICTURE_TYPE)
  return { ...picture, data: NO_BYTES, data_key: pictureFileKey(picture.hash), data_size: picture.data.length }
}

/** The picture's bytes: from the store, or from its row for one kept before the store; undefined if gone. */
export async function pictureBytes(files: FileStore, row: { data: Buffer; data_key: string | null }) {
  return row.data_key === null ? Buffer.from(row.data) : files.get(row.data_key)
}
