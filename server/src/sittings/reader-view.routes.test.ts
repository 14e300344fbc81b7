import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { multipart } from '../../test/auth-requests'
import { dialects } from '../../test/dialects'
import { bearerFor, createQuiz, createUser } from '../../test/factories'
import { markedSheetSvg, photographSheet, type SheetSpec } from '../../test/fixtures/sheet-photos'
import { testConfig, useTestApp } from '../../test/test-app'
import { sheetSecret } from './sitting-view'

// The reader's view of a scan, for support (docs/decisions/066).
const QUESTIONS = 10
const secret = sheetSecret(testConfig().jwtSecret)
let photo: Buffer

beforeAll(async () => {
  const spec: SheetSpec = {
    secret,
    sittingId: 1,
    labels: 'latin',
    optionCounts: Array<number>(QUESTIONS).fill(4),
    holder: { kind: 'roster', learnerName: 'Sita', rollNumber: 1, set: 'A' },
    learnerId: 2,
    marks: Array.from({ length: QUESTIONS }, (_, question) => ({ question, option: 0, style: 'pen' as const })),
  }
  photo = await photographSheet(markedSheetSvg(spec, 1), {
    seed: 1,
    megapixels: 2.5,
    fill: 0.8,
    tiltDeg: 5,
    rotation: 0,
    smallAngleDeg: 2,
    light: 'even',
    blurSigma: 0,
    jpegQuality: 85,
  })
}, 30_000)

/** Pixels of the page outline's pure red, which the photo itself never has. */
async function redPixels(jpeg: Buffer) {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true })
  let red = 0
  for (let i = 0; i < data.length; i += info.channels)
    if (data[i]! > 200 && data[i + 1]! < 70 && data[i + 2]! < 70) red++
  return red
}

describe.each(dialects)("the reader's view of a scan on %s", (dialect) => {
  const t = useTestApp(dialect)

  it('draws the page outline and the bubbles over the kept photo, for admins only; 404 for an unknown scan', async () => {
    const admin = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1, username: 'teacher' }))
    const { quiz } = await createQuiz(t.database, {}, { questionCount: QUESTIONS })
    const sitting = await t.app.inject({
      method: 'POST',
      url: `/api/admin/quizzes/${quiz.id}/sittings/`,
      headers: admin,
      payload: { held_at: '2026-11-28T04:15:00.000Z', sets: 1 },
    })
    expect(sitting.json().id).toBe(1)
    const sita = await createUser(t.database, { username: 'sita' })
    await t.app.inject({
      method: 'PUT',
      url: '/api/admin/sittings/1/roster/',
      headers: admin,
      payload: { learners: [{ username: 'sita' }] },
    })
    const form = multipart({}, [{ field: 'image', filename: 'sheet.jpg', contentType: 'image/jpeg', data: photo }])
    const scanned = await t.app.inject({
      method: 'POST',
      url: '/api/admin/sittings/1/scans/',
      headers: { ...admin, ...form.headers },
      payload: form.payload,
    })
    expect(scanned.statusCode, scanned.body).toBe(201)
    const id = scanned.json().id as number

    const view = await t.app.inject({ method: 'GET', url: `/api/admin/scans/${id}/reader-view`, headers: admin })
    expect(view.statusCode).toBe(200)
    expect(view.headers['content-type']).toBe('image/jpeg')
    const kept = await t.app.inject({ method: 'GET', url: `/api/admin/scans/${id}/image`, headers: admin })
    expect(await redPixels(kept.rawPayload)).toBe(0)
    expect(await redPixels(view.rawPayload)).toBeGreaterThan(500)

    const learner = await bearerFor(t.tokens, sita)
    const forbidden = await t.app.inject({ method: 'GET', url: `/api/admin/scans/${id}/reader-view`, headers: learner })
    expect(forbidden.statusCode).toBe(403)
    const unknown = await t.app.inject({ method: 'GET', url: `/api/admin/scans/${id + 1}/reader-view`, headers: admin })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().code).toBe('not_found')
  })
})
