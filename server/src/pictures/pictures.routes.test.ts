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
    const row = await t.db.selectFrom('pictures').selectAll().executeTakeFirstOrThrow()
    // The row holds the file's name and size, the file store its bytes (docs/decisions/105, 112).
    expect(row.data.length).toBe(0)
    expect(row.data_key).toBe(`pictures/${row.hash}`)
    const data = (await t.files.get(row.data_key!))!
    expect(row.data_size).toBe(data.length)
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

  it('serves a picture kept in its row before the file store (not yet moved by files:migrate)', async () => {
    const picture = await stored()
    await t.db.updateTable('pictures').set({ data: picture.data, data_key: null, data_size: null }).execute()
    await t.files.delete(`pictures/${picture.url.slice('/api/pictures/'.length, -'.webp'.length)}`)
    const response = await t.app.inject({ method: 'GET', url: picture.url })
    expect(response.statusCode).toBe(200)
    expect(response.rawPayload.equals(picture.data)).toBe(true)
  })

  it('keeps neither a row nor a file of a picture whose row could not be written', async () => {
    const pictures = createPicturesService(t)
    const encoded = await pictures.encode(await png(31, 21))
    if (typeof encoded === 'string') throw new Error(encoded)
    // A real failure of the statement: the table's pixels_hash is NOT NULL.
    const broken = { ...encoded, pixelsHash: null as unknown as string }
    await expect(pictures.saveEncoded([broken])).rejects.toThrow()
    expect(await t.db.selectFrom('pictures').select('hash').execute()).toEqual([])
    expect(await t.files.exists(`pictures/${encoded.hash}`)).toBe(false)
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
