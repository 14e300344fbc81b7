import sharp from 'sharp'
import { expectNoFileBytesInTables } from '../../test/file-bytes'
import { FileStoreUnavailable } from '../files'
import { describe, expect, it } from 'vitest'
import type { UserRow } from '../db/schema'
import { multipart } from '../../test/auth-requests'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { pngDeclaring } from '../../test/fixtures/pictures'
import { useTestApp } from '../../test/test-app'
import { writtenPaper } from '../../test/written-papers'

const MINUTE = 60_000

/** A photo of `width` x `height` in `colour`, stored sideways: its EXIF says to turn it a quarter clockwise. */
const sidewaysPhoto = (width: number, height: number, colour = '#f4f0e6') =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer()

describe.each(dialects)('answering written questions online on %s', (dialect) => {
  const t = useTestApp(dialect)

  /** A written paper, and a learner's attempt at it in progress. */
  async function started() {
    const paper = await writtenPaper(t)
    const learner = await createUser(t.database)
    const begun = await paper.as(learner, 'GET', `/api/quizzes/${paper.quizId}/`)
    expect(begun.status).toBe(200)
    const attemptId: number = begun.body.attempt.id
    const base = `/api/attempts/${attemptId}/written/${paper.questionId}`
    const submit = () =>
      paper.as(learner, 'POST', `/api/quizzes/${paper.quizId}/submit/`, { answers: {} }).then((r) => r.status)
    return { ...paper, learner, attemptId, base, submit }
  }

  async function upload(user: UserRow, url: string, photo: Buffer, type = 'image/jpeg') {
    const form = multipart({}, [{ field: 'image', filename: 'page.jpg', contentType: type, data: photo }])
    const response = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...(await bearerFor(t.tokens, user)), ...form.headers },
      payload: form.payload,
    })
    return { status: response.statusCode, body: response.json() }
  }

  const remove = async (user: UserRow, url: string) =>
    (await t.app.inject({ method: 'DELETE', url, headers: await bearerFor(t.tokens, user) })).statusCode

  it('stores typed text and counts its words in Nepali and English alike', async () => {
    const { as, learner, base, attemptId, questionId } = await started()
    const text = 'लोक सेवा आयोग   एक संवैधानिक निकाय हो।\nIt recruits\u00a0civil servants.'
    const typed = await as(learner, 'PUT', `${base}/text/`, { text })
    expect(typed).toMatchObject({ status: 200, body: { word_count: 11 } })
    expect((await as(learner, 'PUT', `${base}/text/`, { text: '' })).body).toEqual({ word_count: 0 })
    await as(learner, 'PUT', `${base}/text/`, { text })
    const stored = await t.db
      .selectFrom('written_answers')
      .select(['text', 'word_count', 'status'])
      .where('attempt_id', '=', attemptId)
      .where('question_id', '=', questionId)
      .execute()
    expect(stored).toEqual([{ text, word_count: 11, status: 'submitted' }])
  })

  it('refuses text too long, of a question not written or not in the attempt, of another learner, and once closed', async () => {
    const { as, learner, base, attemptId, choiceId, submit } = await started()
    const long = await as(learner, 'PUT', `${base}/text/`, { text: 'क'.repeat(30_001) })
    expect(long.status).toBe(400)
    expect(long.body.errors).toHaveProperty('text')
    expect((await as(learner, 'PUT', `${base}/text/`, { text: 'क'.repeat(30_000) })).status).toBe(200)
    expect((await as(learner, 'PUT', `${base}/text/`, { text: 5 })).status).toBe(400)
    const choice = await as(learner, 'PUT', `/api/attempts/${attemptId}/written/${choiceId}/text/`, { text: 'x' })
    expect(choice.status).toBe(404)
    expect((await as(learner, 'PUT', `/api/attempts/${attemptId}/written/999999/text/`, { text: 'x' })).status).toBe(
      404,
    )
    const other = await createUser(t.database)
    expect((await as(other, 'PUT', `${base}/text/`, { text: 'x' })).status).toBe(404)
    expect((await as(learner, 'PUT', `/api/attempts/999999/written/1/text/`, { text: 'x' })).status).toBe(404)
    expect(await submit()).toBe(200)
    const closed = await as(learner, 'PUT', `${base}/text/`, { text: 'after' })
    expect(closed).toMatchObject({ status: 409, body: { code: 'upload_closed' } })
  })

  it('refuses text after the deadline though the attempt is not settled yet', async () => {
    const { as, learner, base } = await started()
    t.clock.advance(91 * MINUTE)
    expect((await as(learner, 'PUT', `${base}/text/`, { text: 'late' })).body.code).toBe('upload_closed')
  })

  it('keeps a page upright, at most 2,200 px, without metadata, served only at its signed address', async () => {
    const { learner, base, attemptId, questionId } = await started()
    const added = await upload(learner, `${base}/pages/`, await sidewaysPhoto(3000, 1000))
    expect(added.status).toBe(201)
    // Turned a quarter: 1000 x 3000, then shrunk to 2,200 on the long side.
    expect(added.body).toMatchObject({ number: 1, width: 733, height: 2200 })
    const image = await t.app.inject({ method: 'GET', url: added.body.url })
    expect(image.statusCode).toBe(200)
    expect(image.headers['content-type']).toBe('image/jpeg')
    const kept = await sharp(image.rawPayload).metadata()
    expect(kept).toMatchObject({ format: 'jpeg', width: 733, height: 2200 })
    expect(kept.exif).toBeUndefined()
    expect(kept.orientation).toBeUndefined()

    // Stored in the database, whatever process serves it; the address's signature is its guard.
    const stored = await t.db
      .selectFrom('written_answer_pages as p')
      .innerJoin('written_answers as w', 'w.id', 'p.answer_id')
      .select(['p.id', 'w.attempt_id', 'w.question_id'])
      .execute()
    expect(stored).toEqual([{ id: added.body.id, attempt_id: attemptId, question_id: questionId }])
    const forged = added.body.url.replace(/signature=[^&]+/, 'signature=AAAA')
    expect((await t.app.inject({ method: 'GET', url: forged })).statusCode).toBe(404)
    const otherPage = added.body.url.replace(`/written-pages/${added.body.id}/`, `/written-pages/${added.body.id + 1}/`)
    expect((await t.app.inject({ method: 'GET', url: otherPage })).statusCode).toBe(404)
    expect((await t.app.inject({ method: 'GET', url: `/api/written-pages/${added.body.id}/` })).statusCode).toBe(404)
    t.clock.advance(3 * 60 * MINUTE)
    expect((await t.app.inject({ method: 'GET', url: added.body.url })).statusCode).toBe(404)
  })

  it("serves a page at a phone's width too: the same page, smaller, at the same signed address", async () => {
    const { learner, base } = await started()
    // Dark above, light below: the rendition must show the same page, not just any small image.
    const photo = await sharp({ create: { width: 1600, height: 2200, channels: 3, background: '#f4f0e6' } })
      .composite([
        {
          input: await sharp({ create: { width: 1600, height: 1100, channels: 3, background: '#1e3a8a' } })
            .png()
            .toBuffer(),
          top: 0,
          left: 0,
        },
      ])
      .jpeg()
      .toBuffer()
    const added = await upload(learner, `${base}/pages/`, photo)
    expect(added.status).toBe(201)
    expect(added.body.phone_url).toBe(`${added.body.url}&size=phone`)
    const full = await t.app.inject({ method: 'GET', url: added.body.url })
    const phone = await t.app.inject({ method: 'GET', url: added.body.phone_url })
    expect(phone.statusCode).toBe(200)
    expect(phone.headers['content-type']).toBe('image/webp')
    expect(phone.headers['cache-control']).toBe(full.headers['cache-control'])
    expect(await sharp(phone.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 720, height: 990 })
    expect(phone.rawPayload.byteLength).toBeLessThan(full.rawPayload.byteLength / 4)
    /** The image shrunk to 8 x 11 grey levels: the same page looks the same at any size. */
    const thumb = (bytes: Buffer) => sharp(bytes).resize(8, 11, { fit: 'fill' }).greyscale().raw().toBuffer()
    const [small, large] = await Promise.all([thumb(phone.rawPayload), thumb(full.rawPayload)])
    expect(Math.max(...small.map((value, i) => Math.abs(value - large[i]!)))).toBeLessThan(24)
    expect(small[0]).toBeLessThan(100)
    expect(small[small.length - 1]).toBeGreaterThan(200)

    // The size is no key: without the signature, forged, another page's, or expired, it is as unknown as the page.
    const id = added.body.id
    expect((await t.app.inject({ method: 'GET', url: `/api/written-pages/${id}/?size=phone` })).statusCode).toBe(404)
    const forged = added.body.phone_url.replace(/signature=[^&]+/, 'signature=AAAA')
    expect((await t.app.inject({ method: 'GET', url: forged })).statusCode).toBe(404)
    const otherPage = added.body.phone_url.replace(`/written-pages/${id}/`, `/written-pages/${id + 1}/`)
    expect((await t.app.inject({ method: 'GET', url: otherPage })).statusCode).toBe(404)
    // Any other size is a clear 400, whatever the signature.
    for (const size of ['huge', 'PHONE', '']) {
      const bad = await t.app.inject({ method: 'GET', url: `${added.body.url}&size=${size}` })
      expect(bad.statusCode).toBe(400)
      expect(bad.json()).toMatchObject({ code: 'validation_error' })
      expect(JSON.stringify(bad.json())).toContain("A page's size is phone")
    }

    // A page kept before renditions were made gets one on its first request, kept for the next.
    await t.db.updateTable('page_images').set({ phone_data: null, phone_key: null, phone_size: null }).execute()
    const made = await t.app.inject({ method: 'GET', url: added.body.phone_url })
    expect(made.statusCode).toBe(200)
    expect(made.headers['content-type']).toBe('image/webp')
    expect(await sharp(made.rawPayload).metadata()).toMatchObject({ width: 720, height: 990 })
    const stored = await t.db.selectFrom('page_images').select(['phone_key', 'phone_size']).executeTakeFirstOrThrow()
    expect(stored.phone_size).toBe(made.rawPayload.length)
    expect((await t.files.get(stored.phone_key!))?.equals(made.rawPayload)).toBe(true)

    t.clock.advance(3 * 60 * MINUTE)
    expect((await t.app.inject({ method: 'GET', url: added.body.phone_url })).statusCode).toBe(404)
  })

  it('makes one page of the same photo sent twice, and refuses a thirteenth page', async () => {
    const { learner, base } = await started()
    const photo = await sidewaysPhoto(60, 40)
    const first = await upload(learner, `${base}/pages/`, photo)
    const again = await upload(learner, `${base}/pages/`, photo)
    expect(first.status).toBe(201)
    expect(again.status).toBe(200)
    expect(again.body.id).toBe(first.body.id)
    for (let page = 2; page <= 12; page++) {
      const added = await upload(learner, `${base}/pages/`, await sidewaysPhoto(60, 40, `#${page.toString(16)}0a0a0`))
      expect(added.body).toMatchObject({ number: page })
    }
    const thirteenth = await upload(learner, `${base}/pages/`, await sidewaysPhoto(60, 40, '#123456'))
    expect(thirteenth).toMatchObject({ status: 409, body: { code: 'too_many_pages' } })
    expect(await t.db.selectFrom('written_answer_pages').select('id').execute()).toHaveLength(12)
  })

  it('refuses what is not a photo (415), too large a photo (413), a form without one (400), and strangers (404)', async () => {
    const { as, learner, base, attemptId, choiceId } = await started()
    const text = await upload(learner, `${base}/pages/`, Buffer.from('not a photo at all'))
    expect(text).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } })
    const huge = await upload(
      learner,
      `${base}/pages/`,
      Buffer.concat([await sidewaysPhoto(60, 40), Buffer.alloc(15 * 1024 * 1024)]),
    )
    expect(huge).toMatchObject({ status: 413, body: { code: 'payload_too_large' } })
    const pixels = await upload(learner, `${base}/pages/`, await pngDeclaring(8000, 7000), 'image/png')
    expect(pixels.status).toBe(413)
    expect(pixels.body.detail).toContain('50 megapixels')
    const form = multipart({ note: 'no photo' })
    const none = await t.app.inject({
      method: 'POST',
      url: `${base}/pages/`,
      headers: { ...(await bearerFor(t.tokens, learner)), ...form.headers },
      payload: form.payload,
    })
    expect(none.statusCode).toBe(400)
    expect((await as(learner, 'POST', `${base}/pages/`, { image: 'x' })).status).toBe(415)
    const photo = await sidewaysPhoto(60, 40)
    expect((await upload(await createUser(t.database), `${base}/pages/`, photo)).status).toBe(404)
    expect((await upload(learner, `/api/attempts/${attemptId}/written/${choiceId}/pages/`, photo)).status).toBe(404)
    expect(await t.db.selectFrom('page_images').select('hash').execute()).toEqual([])
  })

  it('serves a page kept in its row before the file store, as it was', async () => {
    const { learner, base } = await started()
    const added = await upload(learner, `${base}/pages/`, await sidewaysPhoto(60, 40, '#00aa00'))
    const served = await t.app.inject({ method: 'GET', url: added.body.url })
    const phone = await t.app.inject({ method: 'GET', url: added.body.phone_url })
    // As a server before migration 0052 left it: the bytes in the row, no names, nothing in the store.
    const row = await t.db.selectFrom('page_images').select(['data_key', 'phone_key']).executeTakeFirstOrThrow()
    await t.db
      .updateTable('page_images')
      .set({ data: served.rawPayload, data_key: null, data_size: null })
      .set({ phone_data: phone.rawPayload, phone_key: null, phone_size: null })
      .execute()
    await t.files.delete(row.data_key!)
    await t.files.delete(row.phone_key!)
    for (const [url, bytes] of [
      [added.body.url, served.rawPayload],
      [added.body.phone_url, phone.rawPayload],
    ] as const) {
      const again = await t.app.inject({ method: 'GET', url })
      expect(again.statusCode).toBe(200)
      expect(again.rawPayload.equals(bytes)).toBe(true)
    }
  })

  it('answers 503 for a page whose file store cannot be reached, and nothing else fails', async () => {
    const { learner, base, as } = await started()
    const added = await upload(learner, `${base}/pages/`, await sidewaysPhoto(60, 40, '#aa0000'))
    expect(added.status).toBe(201)
    // The store goes away (a lost mount, an S3 outage): reads of it fail as the stores report it.
    const reachable = t.files.get
    t.files.get = async (key) => {
      throw new FileStoreUnavailable(key)
    }
    for (const url of [added.body.url, added.body.phone_url]) {
      const refused = await t.app.inject({ method: 'GET', url })
      expect(refused.statusCode).toBe(503)
      expect(refused.headers['retry-after']).toBe('5')
      expect(refused.json()).toMatchObject({ code: 'service_unavailable' })
    }
    expect((await as(learner, 'PUT', `${base}/text/`, { text: 'still answering' })).status).toBe(200)
    t.files.get = reachable
    expect((await t.app.inject({ method: 'GET', url: added.body.url })).statusCode).toBe(200)
  })

  it('deletes a page and numbers the rest again, orders pages, and refuses an order that is not exactly the pages', async () => {
    const { as, learner, base } = await started()
    const ids: number[] = []
    for (const colour of ['#aa0000', '#00aa00', '#0000aa'])
      ids.push((await upload(learner, `${base}/pages/`, await sidewaysPhoto(60, 40, colour))).body.id)
    const [a, b, c] = ids as [number, number, number]
    const ordered = await as(learner, 'PUT', `${base}/pages/`, { order: [c, a, b] })
    expect(ordered.status).toBe(200)
    expect(ordered.body.pages.map((page: { id: number; number: number }) => [page.id, page.number])).toEqual([
      [c, 1],
      [a, 2],
      [b, 3],
    ])
    for (const order of [[c, a], [c, a, b, b], [c, a, a], [c, a, b + 1000], 'x'])
      expect((await as(learner, 'PUT', `${base}/pages/`, { order })).status).toBe(400)
    expect((await as(await createUser(t.database), 'PUT', `${base}/pages/`, { order: [c, a, b] })).status).toBe(404)

    const keysBefore = await t.db.selectFrom('page_images').select(['hash', 'data_key', 'phone_key']).execute()
    expect(await remove(learner, `${base}/pages/${c}/`)).toBe(204)
    expect(await remove(learner, `${base}/pages/${c}/`)).toBe(404)
    expect(await remove(await createUser(t.database), `${base}/pages/${a}/`)).toBe(404)
    const left = await t.db.selectFrom('written_answer_pages').select(['id', 'number']).orderBy('number').execute()
    expect(left).toEqual([
      { id: a, number: 1 },
      { id: b, number: 2 },
    ])
    // Its image went with it, row and files in the store: no other page held it (docs/decisions/105).
    const kept = await t.db.selectFrom('page_images').select('hash').execute()
    expect(kept).toHaveLength(2)
    for (const image of keysBefore) {
      const stays = kept.some((row) => row.hash === image.hash)
      expect(await t.files.exists(image.data_key!)).toBe(stays)
      expect(await t.files.exists(image.phone_key!)).toBe(stays)
    }
    expect(await expectNoFileBytesInTables(t.database)).toContain('page_images.phone_data')
  })

  it('takes pages after submit until the submission plus the quiz grace, then 409 upload_closed', async () => {
    const { learner, base, submit } = await started()
    expect(await submit()).toBe(200)
    expect((await upload(learner, `${base}/pages/`, await sidewaysPhoto(60, 40))).status).toBe(201)
    // 15 minutes of grace from the submission, not from the deadline 90 minutes away (docs/decisions/090).
    t.clock.advance(15 * MINUTE)
    expect((await upload(learner, `${base}/pages/`, await sidewaysPhoto(60, 40, '#000'))).status).toBe(201)
    t.clock.advance(MINUTE)
    const late = await upload(learner, `${base}/pages/`, await sidewaysPhoto(60, 40, '#222'))
    expect(late).toMatchObject({ status: 409, body: { code: 'upload_closed' } })
    const page = (await t.db.selectFrom('written_answer_pages').select('id').executeTakeFirstOrThrow()).id
    expect(await remove(learner, `${base}/pages/${page}/`)).toBe(409)
  })

  it('keeps the quiz grace an admin sets (0..60), and refuses pages of a marked answer', async () => {
    const { as, admin, learner, base, quizId, submit, attemptId, mark } = await started()
    expect((await as(admin, 'PATCH', `/api/admin/quizzes/${quizId}/`, { upload_grace_minutes: 61 })).status).toBe(400)
    expect((await as(admin, 'PATCH', `/api/admin/quizzes/${quizId}/`, { upload_grace_minutes: 1.5 })).status).toBe(400)
    const patched = await as(admin, 'PATCH', `/api/admin/quizzes/${quizId}/`, { upload_grace_minutes: 0 })
    expect(patched.body.upload_grace_minutes).toBe(0)
    expect(await submit()).toBe(200)
    const answer = await t.db
      .selectFrom('written_answers')
      .select('id')
      .where('attempt_id', '=', attemptId)
      .executeTakeFirstOrThrow()
    await mark(answer.id, {})
    expect((await upload(learner, `${base}/pages/`, await sidewaysPhoto(60, 40))).body.code).toBe('upload_closed')
    t.clock.advance(91 * MINUTE)
    expect((await upload(learner, `${base}/pages/`, await sidewaysPhoto(60, 40))).body.code).toBe('upload_closed')
  })

  it('takes upload_grace_minutes in create-from-JSON and the admin quiz create, 15 by default', async () => {
    const { as, admin } = await started()
    const made = (body: object) => as(admin, 'POST', '/api/quizzes/create-from-json/', { title: { en: 'G' }, ...body })
    const graceOf = async (quizId: number) =>
      (await as(admin, 'GET', `/api/admin/quizzes/${quizId}/`)).body.upload_grace_minutes
    expect(await graceOf((await made({ upload_grace_minutes: 60, status: 'draft' })).body.quiz_id)).toBe(60)
    expect(await graceOf((await made({ status: 'draft' })).body.quiz_id)).toBe(15)
    const refused = await made({ upload_grace_minutes: -1, status: 'draft' })
    expect(refused.status).toBe(400)
    expect(refused.body.errors).toHaveProperty('upload_grace_minutes')
    const created = await as(admin, 'POST', '/api/admin/quizzes/', { title: { en: 'H' }, upload_grace_minutes: 5 })
    expect(created.body.upload_grace_minutes).toBe(5)
    expect(
      (await as(admin, 'POST', '/api/admin/quizzes/', { title: { en: 'H' }, upload_grace_minutes: 61 })).status,
    ).toBe(400)
  })

  it('gives every written question of a submitted attempt an answer, empty where nothing was written', async () => {
    const { attemptId, questionId, submit } = await started()
    expect(await submit()).toBe(200)
    const rows = await t.db
      .selectFrom('written_answers')
      .select(['question_id', 'text', 'word_count', 'status', 'score_hundredths'])
      .where('attempt_id', '=', attemptId)
      .execute()
    expect(rows).toEqual([
      { question_id: questionId, text: '', word_count: 0, status: 'submitted', score_hundredths: null },
    ])
    const attempt = await t.db
      .selectFrom('attempts')
      .select('marks_pending')
      .where('id', '=', attemptId)
      .executeTakeFirstOrThrow()
    expect(attempt.marks_pending).toBe(1)
  })
})
