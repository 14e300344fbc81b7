import { randomBytes } from 'node:crypto'
import sharp from 'sharp'
import type { UserRow } from '../src/db/schema'
import { multipart } from './auth-requests'
import { bearerFor } from './factories'
import type { TestApp } from './test-app'

/** Noise does not compress: each kept page is some hundreds of KB. */
export const noisyPhoto = (width = 700, height = 900) =>
  sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer()

/** A page photo sent as the phone sends it (field `image`), as `user`. */
export function photoUploads(t: Pick<TestApp, 'app' | 'tokens'>) {
  return async (user: UserRow, url: string, photo: Buffer) => {
    const form = multipart({}, [{ field: 'image', filename: 'page.jpg', contentType: 'image/jpeg', data: photo }])
    const response = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...(await bearerFor(t.tokens, user)), ...form.headers },
      payload: form.payload,
    })
    return { status: response.statusCode, body: response.json() }
  }
}
