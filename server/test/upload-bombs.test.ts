import { sittingMessages, writtenAnswerMessages } from '@quiz/contracts'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'
import { afterEach, describe, expect, it } from 'vitest'
import type { UserRow } from '../src/db/schema'
import { drainingDetail } from '../src/http/draining'
import { uploadLimits } from '../src/http/upload-turns'
import { decodeLimits, withDecodeSlot } from '../src/lib/decode-gate'
import { dialects } from './dialects'
import { bearerFor, createQuiz, createUser } from './factories'
import { progressiveJpegBomb, svgBomb } from './fixtures/bomb-images'
import { useTestApp } from './test-app'
import { multipart } from './auth-requests'
import { partialUpload, postForm, postPhoto, sleep, until } from './upload-sockets'
import { writtenPaper } from './written-papers'

// Issue 72, items 1-3 and its shutdown note, over real sockets: no picture, learner or network stops the others'
// uploads (docs/decisions/088).

const page = () =>
  sharp({ create: { width: 600, height: 800, channels: 3, background: '#f4f0e6' } })
    .jpeg()
    .toBuffer()
const limits = { ...uploadLimits }

describe.each(dialects)('uploads that cannot stop the others on %s', (dialect) => {
  const t = useTestApp(dialect, { RATE_LIMIT_PROFILE_PICTURE_PER_USER_HOUR: '100' })
  afterEach(() => Object.assign(uploadLimits, limits))

  /** The server on a real port, a written paper, and `n` learners each in an attempt at it. */
  async function serving(n: number) {
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    const port = (t.app.server.address() as AddressInfo).port
    const paper = await writtenPaper(t)
    const learners: { user: UserRow; bearer: Record<string, string>; url: string }[] = []
    for (let i = 0; i < n; i++) {
      const user = await createUser(t.database)
      const begun = await paper.as(user, 'GET', `/api/quizzes/${paper.quizId}/`)
      const url = `/api/attempts/${begun.body.attempt.id}/written/${paper.questionId}/pages/`
      learners.push({ user, bearer: await bearerFor(t.tokens, user), url })
    }
    return { port, learners }
  }

  it('answers an SVG "photo" bomb at once on the page, profile and scan routes: sharp never sizes it', async () => {
    // Sizing this 1.6 KB SVG takes librsvg some 20 s: the header was read before the gate, with no limit.
    const bomb = svgBomb(6)
    const { port, learners } = await serving(1)
    const [{ bearer, url }] = learners as [(typeof learners)[0]]
    const admin = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const { quiz } = await createQuiz(t.database, {}, { questionCount: 2 })
    const sitting = await t.app.inject({
      method: 'POST',
      url: `/api/admin/quizzes/${quiz.id}/sittings/`,
      headers: admin,
      payload: { held_at: '2026-11-28T04:15:00.000Z' },
    })
    const profileForm = multipart({}, [
      { field: 'profile_picture', filename: 'me.jpg', contentType: 'image/jpeg', data: bomb },
    ])
    const [onPage, onProfile, onScan] = await Promise.all([
      postPhoto(port, url, bearer, bomb),
      postForm(port, '/api/users/profile/', bearer, profileForm, 'PUT'),
      postPhoto(port, `/api/admin/sittings/${sitting.json().id}/scans/`, admin, bomb),
    ])
    expect(onPage).toMatchObject({ status: 415, body: { detail: writtenAnswerMessages.notAPhoto } })
    expect(onProfile.status).toBe(400)
    expect(onScan).toMatchObject({ status: 415, body: { detail: sittingMessages.notAPhoto } })
    for (const answer of [onPage, onProfile, onScan]) expect(answer.ms).toBeLessThan(2_000)
  })

  it('refuses the 383 KB progressive 7000 x 7000 four-component JPEG from its header: 450 MB never taken', async () => {
    const bomb = progressiveJpegBomb({ width: 7000, height: 7000, components: 4, fewScans: true })
    const { port, learners } = await serving(1)
    const [{ bearer, url }] = learners as [(typeof learners)[0]]
    let peak = process.memoryUsage().rss
    const before = peak
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10)
    const refused = await Promise.all([1, 2].map(() => postPhoto(port, url, bearer, bomb)))
    clearInterval(sampler)
    for (const answer of refused) {
      expect(answer.status).toBe(400)
      expect(answer.body.detail).toBe(writtenAnswerMessages.photoTooCostly)
    }
    expect((peak - before) / 1e6).toBeLessThan(150)
    // A photo that fits is still kept.
    expect((await postPhoto(port, url, bearer, await page())).status).toBe(201)
  })

  it('gives the turn back when page uploads drop mid-body: the next learner is answered', async () => {
    const { port, learners } = await serving(9)
    // The part's head sent, no byte of the photo: past 4 at once before the fix, the rest in line.
    const dropped = learners.slice(0, 8).map(({ bearer, url }) => partialUpload(port, url, bearer, { sent: 0 }))
    await sleep(300)
    for (const upload of dropped) upload.socket.destroy()
    const last = learners[8]!
    const answer = await postPhoto(port, last.url, last.bearer, await page())
    expect(answer.status).toBe(201)
    expect(answer.ms).toBeLessThan(5_000)
  })

  it("gives an admin's turns back when scans drop mid-body: the next scan is read", async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    const port = (t.app.server.address() as AddressInfo).port
    const admin = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const { quiz } = await createQuiz(t.database, {}, { questionCount: 2 })
    const sitting = await t.app.inject({
      method: 'POST',
      url: `/api/admin/quizzes/${quiz.id}/sittings/`,
      headers: admin,
      payload: { held_at: '2026-11-28T04:15:00.000Z' },
    })
    const base = `/api/admin/sittings/${sitting.json().id}`
    const dropped = [1, 2, 3, 4, 5, 6].map((n) =>
      partialUpload(port, `${base}/${n % 2 ? 'scans' : 'pages'}/`, admin, { sent: 0 }),
    )
    await sleep(300)
    // An admin has 4 (the scan screen sends 3 at once): the fifth and sixth are refused at once.
    expect(dropped.filter((upload) => upload.status() === 429)).toHaveLength(2)
    for (const upload of dropped) upload.socket.destroy()
    await sleep(100)
    // A photo that is no sheet: read, and refused for what it shows.
    const answer = await postPhoto(port, `${base}/scans/`, admin, await page())
    expect(answer.status).toBe(422)
    expect(answer.ms).toBeLessThan(5_000)
    expect((await postPhoto(port, `${base}/pages/`, admin, await page())).status).toBe(422)
  })

  it('ends a body that stops arriving, and one too slow for its length, and gives their turns back', async () => {
    uploadLimits.idleSeconds = 1
    const { port, learners } = await serving(3)
    const [quiet, slow, other] = learners as [(typeof learners)[0], (typeof learners)[0], (typeof learners)[0]]
    const stalled = partialUpload(port, quiet.url, quiet.bearer)
    let started = performance.now()
    await stalled.closed
    expect(performance.now() - started).toBeLessThan(3_000)
    // Bytes every 200 ms are never idle; the body is owed within 1 s (and nothing more for its length).
    uploadLimits.startSeconds = 1
    uploadLimits.bytesPerSecond = 1e12
    const trickling = partialUpload(port, slow.url, slow.bearer)
    const trickle = setInterval(() => trickling.write(100), 200)
    started = performance.now()
    await trickling.closed
    clearInterval(trickle)
    expect(performance.now() - started).toBeLessThan(3_000)
    expect((await postPhoto(port, other.url, other.bearer, await page())).status).toBe(201)
  })

  it("never makes another learner's upload 429 for one learner's 36 slow uploads", async () => {
    const { port, learners } = await serving(2)
    const [greedy, other] = learners as [(typeof learners)[0], (typeof learners)[0]]
    const slow = Array.from({ length: 36 }, () => partialUpload(port, greedy.url, greedy.bearer, { sent: 1024 }))
    const trickle = setInterval(() => slow.forEach((upload) => upload.write(10)), 500)
    try {
      await until(() => slow.filter((upload) => upload.status() === 429).length >= 34, 5_000, "the learner's 429s")
      const answer = await postPhoto(port, other.url, other.bearer, await page())
      expect(answer.status).toBe(201)
      expect(answer.ms).toBeLessThan(5_000)
    } finally {
      clearInterval(trickle)
      for (const upload of slow) upload.socket.destroy()
    }
  })

  it('stops promptly with uploads stalled in their turns and waiting in line', async () => {
    const { port, learners } = await serving(3)
    const stalled = learners.map(({ bearer, url }) =>
      partialUpload(port, url, bearer, { declared: 15 * 1024 * 1024, sent: 4096 }),
    )
    await sleep(300)
    const started = performance.now()
    await t.app.close()
    expect(performance.now() - started).toBeLessThan(2_000)
    await Promise.all(stalled.map((upload) => upload.closed))
  })

  it('stops promptly with a profile picture waiting for a decode slot, and answers it 503', async () => {
    const { port, learners } = await serving(1)
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const slots = Array.from({ length: decodeLimits.atOnce }, () => withDecodeSlot(() => held))
    try {
      const form = multipart({}, [
        { field: 'profile_picture', filename: 'me.jpg', contentType: 'image/jpeg', data: await page() },
      ])
      const waiting = postForm(port, '/api/users/profile/', learners[0]!.bearer, form, 'PUT')
      await sleep(300)
      const started = performance.now()
      await t.app.close()
      expect(performance.now() - started).toBeLessThan(2_000)
      expect(await waiting).toMatchObject({ status: 503, body: { detail: drainingDetail } })
    } finally {
      release()
      await Promise.all(slots)
    }
  })
})
