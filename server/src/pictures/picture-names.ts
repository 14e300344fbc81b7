import { createHmac } from 'node:crypto'
import type { EncodedPicture } from './picture-encoding'

// Keyed (issue 54): a plain hash let anyone holding a figure test whether the bank has it, drafts included.
export const pictureKey = (jwtSecret: string) => createHmac('sha256', jwtSecret).update('picture-name').digest('hex')

export const pictureName = (key: string, contentHash: string) =>
  createHmac('sha256', key).update(contentHash).digest('hex')

export const named = (key: string, encoded: EncodedPicture): EncodedPicture => ({
  ...encoded,
  hash: pictureName(key, encoded.hash),
})
