import { pictureMessages, sittingMessages } from '@quiz/contracts'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { multipart } from './auth-requests'
import { dialects } from './dialects'
import { bearerFor, createQuiz, createUser } from './factories'
import { questionBody } from './fixtures/admin.fixtures'
import { progressiveJpegBomb } from './fixtures/bomb-images'
import { dataUrl } from './fixtures/pictures'
import { photoUploadTurn, uploadTurnLimits } from '../src/lib/decode-gate'
import { useTestApp } from './test-app'

// Issue 54: every entry that decodes a picture refuses a decompression bomb with its route's own shape, never a 500.

// 379 scans of 64 x 64: small and quick, yet sharp decodes it without the gate.
const bomb = progressiveJpegBomb({ width: 64, height: 64, bits: 2 })
const flatJpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#4080c0' } })
    .jpeg()
    .toBuffer()

describe.each(dialects)('picture bombs on %s', (dialect) => {
  const t = useTestApp(dialect, { RATE_LIMIT_PROFILE_PICTURE_PER_USER_HOUR: '4' })

  async function putProfile(headers: Record<string, string>, data: Buffer) {
    const body = multipart({}, [{ field: 'profile_picture', filename: 'me.jpg', contentType: 'image/jpeg', data }])
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/users/profile/',
      headers: { ...body.headers, ...headers },
      payload: body.payload,
    })
    return { status: response.statusCode, body: response.json(), headers: response.headers }
  }

  it('refuses a profile picture of hundreds of JPEG scans with 400, and one over 25 megapixels naming the cap', async () => {
    const learner = await bearerFor(t.tokens, await createUser(t.database, { username: 'maya' }))
    const scans = await putProfile(learner, bomb)
    expect(scans.status).toBe(400)
    expect(scans.body.errors.profile_picture[0]).toMatch(/takes too long to read/)
    const huge = await putProfile(learner, await flatJpeg(6000, 4500))
    expect(huge.status).toBe(400)
    expect(huge.body.errors.profile_picture).toEqual(['The image is too large: at most 25 megapixels.'])
    // A recent phone's 24-megapixel photo still passes.
    expect((await putProfile(learner, await flatJpeg(5712, 4284))).status).toBe(200)
  })

  it('answers 429 with Retry-After past RATE_LIMIT_PROFILE_PICTURE_PER_USER_HOUR new pictures, per user', async () => {
    const maya = await bearerFor(t.tokens, await createUser(t.database, { username: 'maya' }))
    const hari = await bearerFor(t.tokens, await createUser(t.database, { username: 'hari' }))
    const picture = await flatJpeg(40, 40)
    // A refused picture counts too: the decode it asked for was the cost.
    expect((await putProfile(maya, bomb)).status).toBe(400)
    for (let i = 0; i < 3; i++) expect((await putProfile(maya, picture)).status).toBe(200)
    const refused = await putProfile(maya, picture)
    expect(refused.status).toBe(429)
    expect(refused.body.code).toBe('rate_limited')
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    // Other fields are not limited, nor another learner's picture.
    const name = multipart({ full_name: 'Maya Gurung' })
    const renamed = await t.app.inject({
      method: 'PUT',
      url: '/api/users/profile/',
      headers: { ...name.headers, ...maya },
      payload: name.payload,
    })
    expect(renamed.statusCode).toBe(200)
    expect((await putProfile(hari, picture)).status).toBe(200)
  })

  it("refuses a question picture of hundreds of JPEG scans with 400 at the field's path", async () => {
    const admin = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const { quiz } = await createQuiz(t.database, {}, { questionCount: 1 })
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/admin/quizzes/${quiz.id}/questions/`,
      headers: admin,
      payload: questionBody({ image: { picture: dataUrl(bomb, 'image/jpeg'), caption: { en: 'A map' } } }),
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().errors['image.picture']).toEqual([pictureMessages.tooCostly])
    expect(await t.db.selectFrom('pictures').selectAll().execute()).toEqual([])
  })

  it('refuses a scan photo of hundreds of JPEG scans with 422 before reading it', async () => {
    const admin = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const { quiz } = await createQuiz(t.database, {}, { questionCount: 2 })
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/admin/quizzes/${quiz.id}/sittings/`,
      headers: admin,
      payload: { held_at: '2026-11-28T04:15:00.000Z' },
    })
    const form = multipart({}, [{ field: 'image', filename: 'sheet.jpg', contentType: 'image/jpeg', data: bomb }])
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/admin/sittings/${created.json().id}/scans/`,
      headers: { ...admin, ...form.headers },
      payload: form.payload,
    })
    expect(response.statusCode).toBe(422)
    expect(response.json()).toMatchObject({ code: 'sheet_unreadable', detail: sittingMessages.photoTooCostly })
  })

  it("refuses a scan upload with 429 before reading it while the turns' bytes are taken and 32 wait", async () => {
    const admin = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const busy = () => new Error('busy')
    const turns = [
      photoUploadTurn(() => held, busy, { weight: uploadTurnLimits.bytes }),
      ...Array.from({ length: uploadTurnLimits.waiting }, () => photoUploadTurn(() => held, busy)),
    ]
    const form = multipart({}, [{ field: 'image', filename: 'a.jpg', contentType: 'image/jpeg', data: bomb }])
    const upload = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/sittings/1/scans/',
        headers: { ...admin, ...form.headers },
        payload: form.payload,
      })
    const refused = await upload()
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toMatchObject({ code: 'rate_limited', detail: sittingMessages.photosBusy })
    expect(refused.headers['retry-after']).toBe('5')
    release()
    await Promise.all(turns)
    // With the turns free, the same upload is read and its photo checked.
    expect((await upload()).json()).toMatchObject({ code: 'sheet_unreadable', detail: sittingMessages.photoTooCostly })
  })
})
