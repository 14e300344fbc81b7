import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { png } from '../../test/fixtures/pictures'
import { useTestApp } from '../../test/test-app'
import { createPicturesService } from './pictures.service'

describe.each(dialects)('GET /api/pictures/{hash}.webp on %s', (dialect) => {
  const t = useTestApp(dialect)

  async function stored() {
    const picture = await createPicturesService(t).store(await png(30, 20))
    if (typeof picture === 'string') throw new Error(picture)
    const { data } = await t.db.selectFrom('pictures').select('data').executeTakeFirstOrThrow()
    return { ...picture, data }
  }

  it('serves a stored picture to anyone, kept a year by the browser and by no shared cache', async () => {
    const picture = await stored()
    const response = await t.app.inject({ method: 'GET', url: picture.url })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('image/webp')
    expect(response.headers['cache-control']).toBe('private, max-age=31536000, immutable')
    expect(response.headers['content-length']).toBe(String(picture.data.length))
    // The security headers every response carries.
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.headers['content-security-policy']).toContain("default-src 'self'")
    expect(response.rawPayload.equals(picture.data)).toBe(true)
    // Again, from the process's cache: the same bytes.
    const again = await t.app.inject({ method: 'GET', url: picture.url })
    expect(again.rawPayload.equals(picture.data)).toBe(true)
  })

  it('serves many requests for one picture at once', async () => {
    const picture = await stored()
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => t.app.inject({ method: 'GET', url: picture.url })),
    )
    expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(200))
  })

  it.each([
    ['an unknown hash', `${'0'.repeat(64)}.webp`],
    ['a short hash', 'abc.webp'],
    ['another extension', `${'a'.repeat(64)}.png`],
    ['capitals', `${'A'.repeat(64)}.webp`],
    ['a doubled extension', `${'a'.repeat(64)}.webp.webp`],
    ['a long name', `${'a'.repeat(90)}.webp`],
    ['a name with dots', '..%2F..%2Fetc%2Fpasswd'],
  ])('answers 404 to %s', async (_name, file) => {
    await stored()
    const response = await t.app.inject({ method: 'GET', url: `/api/pictures/${file}` })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toMatchObject({ code: 'not_found' })
    expect(response.headers['cache-control']).toBe('no-store')
  })
})
