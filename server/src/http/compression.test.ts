import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { openQuiz } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'

// API.md "Maths and chemistry": JSON responses under /api are compressed when the client accepts it.
describe.each(dialects)('compressed /api responses on %s', (dialect) => {
  const t = useTestApp(dialect)

  async function adminGet(url: string, acceptEncoding?: string) {
    const admin = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    return t.app.inject({
      method: 'GET',
      url,
      headers: { ...admin, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
    })
  }

  it('sends JSON over 1 KB brotli- or gzip-compressed as the client accepts, and plain otherwise', async () => {
    const { quiz } = await openQuiz(t, {}, { questionCount: 30 })
    const url = `/api/admin/quizzes/${quiz.id}/`
    const plain = await adminGet(url)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.rawPayload.length).toBeGreaterThan(1024)

    const br = await adminGet(url, 'br, gzip')
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3)
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json())

    const gzip = await adminGet(url, 'gzip')
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json())

    expect((await adminGet(url, 'identity')).headers['content-encoding']).toBeUndefined()
  })

  it('leaves responses under 1 KB as they are', async () => {
    const { quiz } = await openQuiz(t, {}, { questionCount: 1 })
    const response = await adminGet(`/api/admin/quizzes/${quiz.id}/statistics/?which=all`, 'gzip')
    expect(response.statusCode).toBe(200)
    expect(response.rawPayload.length).toBeLessThan(1024)
    expect(response.headers['content-encoding']).toBeUndefined()
  })

  it('streams the attempts CSV as written, uncompressed', async () => {
    const { quiz } = await openQuiz(t, {}, { questionCount: 40 })
    const response = await adminGet(`/api/admin/quizzes/${quiz.id}/attempts.csv`, 'br, gzip')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-encoding']).toBeUndefined()
    expect(response.body.startsWith('\uFEFFattempt_id,username')).toBe(true)
  })
})
