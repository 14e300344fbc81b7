import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { expectNoFileBytesInTables } from '../../test/file-bytes'
import { multipart } from '../../test/auth-requests'
import { createTokenSigner } from '../http/tokens'
import { failWrites, keysIn } from '../../test/failing-store'
import { GRACE_MS, sweepOrphanedFiles } from '../db/file-sweep'

const image = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 60 } } })

const picture = (data: Buffer, filename = 'me.png', contentType = 'image/png') => ({
  field: 'profile_picture',
  filename,
  contentType,
  data,
})

describe.each(dialects)('profile on %s', (dialect) => {
  const t = useTestApp(dialect)

  async function auth() {
    const user = await createUser(t.database, { username: 'Maya', phone_number: '9800000042' })
    const tokens = createTokenSigner({ secret: t.config.jwtSecret, accessTtl: 900, refreshTtl: 3600, clock: t.clock })
    return { user, authorization: (await bearerFor(tokens, user)).authorization }
  }

  async function put(authorization: string, fields: Record<string, string>, files: ReturnType<typeof picture>[] = []) {
    const body = multipart(fields, files)
    return t.app.inject({
      method: 'PUT',
      url: '/api/users/profile/',
      headers: { ...body.headers, authorization },
      payload: body.payload,
    })
  }

  it('answers 401 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/users/profile/' })).statusCode).toBe(401)
    const body = multipart({ full_name: 'x' })
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/users/profile/', headers: body.headers, payload: body.payload }))
        .statusCode,
    ).toBe(401)
  })

  it('answers the profile with defaults for a new user', async () => {
    const { authorization } = await auth()
    const response = await t.app.inject({ method: 'GET', url: '/api/users/profile/', headers: { authorization } })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({
      username: 'Maya',
      phone_number: '9800000042',
      full_name: '',
      email: '',
      preferred_language: 'en',
      profile_picture: null,
      sms_reminders: false,
      show_on_leaderboards: true,
      daily_reminder: null,
      screen_reader: false,
    })
  })

  it('updates the sent fields and keeps the others', async () => {
    const { authorization } = await auth()
    const first = await put(authorization, {
      full_name: '  Maya Gurung ',
      email: 'maya@example.com',
      preferred_language: 'ne',
    })
    expect(first.statusCode).toBe(200)
    expect(first.json()).toMatchObject({
      full_name: 'Maya Gurung',
      email: 'maya@example.com',
      preferred_language: 'ne',
    })
    const second = await put(authorization, { email: '' })
    expect(second.json()).toMatchObject({ full_name: 'Maya Gurung', email: '', preferred_language: 'ne' })
    const read = await t.app.inject({ method: 'GET', url: '/api/users/profile/', headers: { authorization } })
    expect(read.json()).toEqual(second.json())
  })

  it('answers 400 per field to an invalid email and an unknown language', async () => {
    const { authorization } = await auth()
    const response = await put(authorization, {
      email: 'not-an-email',
      preferred_language: 'fr',
      full_name: 'x'.repeat(151),
    })
    expect(response.statusCode).toBe(400)
    expect(Object.keys(response.json().errors).sort()).toEqual(['email', 'full_name', 'preferred_language'])
    expect(response.json().errors.email).toEqual(['Enter a valid email address.'])
  })

  it('answers 415 to a JSON PUT', async () => {
    const { authorization } = await auth()
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/users/profile/',
      headers: { authorization },
      payload: { full_name: 'Maya' },
    })
    expect(response.statusCode).toBe(415)
    expect(response.json().code).toBe('unsupported_media_type')
  })

  it('answers 400 to a truncated multipart body', async () => {
    const { authorization } = await auth()
    const body = multipart({ full_name: 'Maya' })
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/users/profile/',
      headers: { ...body.headers, authorization },
      payload: body.payload.subarray(0, body.payload.length - 20),
    })
    expect(response.statusCode).toBe(400)
  })

  it('re-encodes an uploaded PNG to at most 512x512 WebP and serves it at a public, cacheable URL', async () => {
    const { authorization } = await auth()
    const png = await image(1600, 900).png().toBuffer()
    const response = await put(authorization, {}, [picture(png)])
    expect(response.statusCode).toBe(200)
    const url = response.json().profile_picture as string
    expect(url).toMatch(/^\/api\/users\/profile-pictures\/[A-Za-z0-9_-]{24}$/)

    const served = await t.app.inject({ method: 'GET', url })
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe('image/webp')
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const metadata = await sharp(served.rawPayload).metadata()
    expect(metadata).toMatchObject({ format: 'webp', width: 512, height: 288 })
  })

  it('turns a photo upright by its EXIF orientation and strips its metadata (GPS included)', async () => {
    const { authorization } = await auth()
    const jpeg = await image(300, 200)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({ IFD0: { Make: 'PhoneMaker' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '27/1 42/1 0/1' } })
      .toBuffer()
    expect(await sharp(jpeg).metadata()).toMatchObject({ orientation: 6, exif: expect.any(Buffer) })
    expect(jpeg.includes(Buffer.from('PhoneMaker'))).toBe(true)
    const response = await put(authorization, {}, [picture(jpeg, 'photo.jpg', 'image/jpeg')])
    expect(response.statusCode).toBe(200)
    const served = await t.app.inject({ method: 'GET', url: response.json().profile_picture })
    const metadata = await sharp(served.rawPayload).metadata()
    expect(metadata).toMatchObject({ width: 200, height: 300 })
    expect(metadata.exif).toBeUndefined()
    expect(metadata.orientation).toBeUndefined()
    expect(served.rawPayload.includes(Buffer.from('PhoneMaker'))).toBe(false)
  })

  it.each([
    ['WebP', () => image(64, 64).webp().toBuffer()],
    ['GIF', () => image(64, 64).gif().toBuffer()],
  ])('accepts a %s picture and keeps small pictures at their size', async (_label, make) => {
    const { authorization } = await auth()
    const response = await put(authorization, {}, [picture(await make(), 'pic.bin', 'application/octet-stream')])
    expect(response.statusCode).toBe(200)
    const served = await t.app.inject({ method: 'GET', url: response.json().profile_picture })
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ width: 64, height: 64 })
  })

  it('answers 400 to a text file renamed .png', async () => {
    const { authorization } = await auth()
    const response = await put(authorization, { full_name: 'Changed' }, [
      picture(Buffer.from('just some text, not a picture\n'.repeat(20))),
    ])
    expect(response.statusCode).toBe(400)
    expect(response.json().errors.profile_picture).toEqual(['Upload a valid image: JPEG, PNG, WebP or GIF.'])
    // Nothing of the refused request was stored.
    const read = await t.app.inject({ method: 'GET', url: '/api/users/profile/', headers: { authorization } })
    expect(read.json()).toMatchObject({ full_name: '', profile_picture: null })
  })

  it('answers 400 to an SVG and to a truncated PNG', async () => {
    const { authorization } = await auth()
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    )
    expect((await put(authorization, {}, [picture(svg, 'x.png')])).statusCode).toBe(400)
    const png = await image(400, 400).png().toBuffer()
    expect((await put(authorization, {}, [picture(png.subarray(0, png.length / 2))])).statusCode).toBe(400)
  })

  it('answers 413 to a picture larger than 5 MB', async () => {
    const { authorization } = await auth()
    const huge = Buffer.alloc(5 * 1024 * 1024 + 1, 7)
    const response = await put(authorization, {}, [picture(huge)])
    expect(response.statusCode).toBe(413)
    expect(response.json()).toEqual({ detail: 'The profile picture must be at most 5 MB.', code: 'payload_too_large' })
  })

  it('replaces the picture: the old URL stops working', async () => {
    const { authorization } = await auth()
    const first = (await put(authorization, {}, [picture(await image(50, 50).png().toBuffer())])).json().profile_picture
    const second = (await put(authorization, {}, [picture(await image(60, 60).png().toBuffer())])).json()
      .profile_picture
    expect(second).not.toBe(first)
    expect((await t.app.inject({ method: 'GET', url: first })).statusCode).toBe(404)
    const served = await t.app.inject({ method: 'GET', url: second })
    expect(served.statusCode).toBe(200)
    expect(await t.db.selectFrom('profile_pictures').select('id').execute()).toHaveLength(1)
    // In the file store, the row keeping its name, size and hash; the replaced one's file gone (decision 105).
    const row = await t.db
      .selectFrom('profile_pictures')
      .select(['id', 'data_key', 'data_size'])
      .executeTakeFirstOrThrow()
    expect((await t.files.get(row.data_key!))?.equals(served.rawPayload)).toBe(true)
    expect(row.data_size).toBe(served.rawPayload.length)
    expect(await t.files.exists(`profile-pictures/${String(first).split('/').filter(Boolean).pop()}`)).toBe(false)
    expect(await expectNoFileBytesInTables(t.database)).toContain('profile_pictures.data')
  })

  it('removes the picture with remove_picture=true', async () => {
    const { authorization } = await auth()
    const url = (await put(authorization, {}, [picture(await image(50, 50).png().toBuffer())])).json().profile_picture
    const response = await put(authorization, { remove_picture: 'true' })
    expect(response.statusCode).toBe(200)
    expect(response.json().profile_picture).toBeNull()
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404)
    expect(await t.files.exists(`profile-pictures/${String(url).split('/').filter(Boolean).pop()}`)).toBe(false)
  })

  it('ignores an empty file part, as a form with no file chosen sends', async () => {
    const { authorization } = await auth()
    const url = (await put(authorization, {}, [picture(await image(50, 50).png().toBuffer())])).json().profile_picture
    const response = await put(authorization, { full_name: 'Maya' }, [
      picture(Buffer.alloc(0), '', 'application/octet-stream'),
    ])
    expect(response.statusCode).toBe(200)
    expect(response.json().profile_picture).toBe(url)
  })

  it('answers 503 when the store cannot take a new picture, changing nothing; a file written all the same is swept', async () => {
    // The store outlives each test's rows: what earlier tests of the file left is swept first, so the count is ours.
    await sweepOrphanedFiles(t.appDatabase, t.files, Date.now() + GRACE_MS + 5_000)
    const { user, authorization } = await auth()
    const url = (await put(authorization, {}, [picture(await image(50, 50).png().toBuffer())])).json().profile_picture
    const filesBefore = await keysIn(t.files, 'profile-pictures/')
    const rowsBefore = await t.db.selectFrom('profile_pictures').select(['id', 'data_key']).execute()
    // Unreachable: nothing written. Then written, but the answer lost: the app cannot know the file is there.
    for (const kept of [false, true]) {
      const restore = failWrites(t.files, { kept })
      const refused = await put(authorization, { full_name: 'Maya Gurung' }, [
        picture(await image(70, 70).png().toBuffer()),
      ])
      restore()
      expect(refused.statusCode, refused.body).toBe(503)
      expect(refused.headers['retry-after']).toBe('5')
      expect(refused.json()).toMatchObject({ code: 'service_unavailable' })
      // One transaction or nothing: the name was not changed either, and the old picture is still the profile's.
      const profile = await t.app.inject({ method: 'GET', url: '/api/users/profile/', headers: { authorization } })
      expect(profile.json()).toMatchObject({ full_name: user.full_name, profile_picture: url })
      expect(await t.db.selectFrom('profile_pictures').select(['id', 'data_key']).execute()).toEqual(rowsBefore)
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200)
    }
    // The upload removes the file it may have written (its name is fresh: no row can name it); the sweep finds no more.
    expect(await keysIn(t.files, 'profile-pictures/')).toEqual(filesBefore)
    expect(await sweepOrphanedFiles(t.appDatabase, t.files, Date.now() + GRACE_MS + 5_000)).toBe(0)
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200)
  })

  it('answers 404 to an unknown or malformed picture id', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/users/profile-pictures/AAAAAAAAAAAAAAAAAAAAAAAA' })).statusCode,
    ).toBe(404)
    expect((await t.app.inject({ method: 'GET', url: '/api/users/profile-pictures/..%2F..%2Fetc' })).statusCode).toBe(
      404,
    )
  })
})
