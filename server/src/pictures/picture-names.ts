import { createHmac } from 'node:crypto'
import type { EncodedPicture } from './picture-encoding'

// A picture's public name is keyed (issue 54): its plain hash let anyone holding a figure test whether the bank has
// it, draft and paid-tier questions included. The same content still gets the same name under the same secret.
export const pictureKey = (jwtSecret: string) => createHmac('sha256', jwtSecret).update('picture-name').digest('hex')

/** The name of the picture whose bytes hash (sha256, hex) to `contentHash`. */
export const pictureName = (key: string, contentHash: string) =>
  createHmac('sha256', key).update(contentHash).digest('hex')

/** An encoded picture under its public name (picture-encoding.ts gives the sha256 of its bytes). */
export const named = (key: string, encoded: EncodedPicture): EncodedPicture => ({
  ...encoded,
  hash: pictureName(key, encoded.hash),
})
