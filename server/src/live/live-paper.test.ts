import { createDecipheriv } from 'node:crypto'
import type { LivePaper, LivePaperContent } from '@quiz/contracts'
import { describe, expect, it } from 'vitest'
import type { UserRow } from '../db/schema'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { dataUrl, png } from '../../test/fixtures/pictures'
import { openQuiz, requestsAs } from '../../test/learner-api'
import { openLiveMock } from '../../test/live-mock'
import { useTestApp } from '../../test/test-app'

const HOUR = 3_600_000

/** What WebCrypto's AES-GCM decrypt does: the last 16 bytes of `data` are the tag. */
function decrypt(paper: LivePaper, key: string): LivePaperContent {
  const data = Buffer.from(paper.data, 'base64url')
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(key, 'base64url'), Buffer.from(paper.iv, 'base64url'))
  decipher.setAuthTag(data.subarray(data.length - 16))
  const plain = Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()])
  return JSON.parse(plain.toString('utf8')) as LivePaperContent
}

// API.md "Live mocks", "The paper ahead of time" (docs/decisions/069).
describe.each(dialects)("a live mock's paper ahead of time on %s", (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)

  const register = async (user: UserRow, id: number) =>
    (
      await t.app.inject({
        method: 'POST',
        url: `/api/quizzes/${id}/register/`,
        headers: await bearerFor(t.tokens, user),
      })
    ).statusCode

  async function registeredMock() {
    const mock = await openLiveMock(t)
    const learner = await createUser(t.database)
    expect(await register(learner, mock.id)).toBe(201)
    const paper = (user: UserRow) => call(user, 'GET', `/api/quizzes/${mock.id}/live-paper/`)
    return { ...mock, learner, paper }
  }

  it('serves the paper from 24 hours before the start to registered learners only', async () => {
    const mock = await registeredMock()
    const stranger = await createUser(t.database)
    const refused = await mock.paper(stranger)
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('not_registered')

    t.clock.set(mock.startsAt - 24 * HOUR - 1)
    const early = await mock.paper(mock.learner)
    expect(early.status).toBe(403)
    expect(early.body.code).toBe('paper_not_offered')

    t.clock.set(mock.startsAt - 24 * HOUR)
    const served = await mock.paper(mock.learner)
    expect(served.status).toBe(200)
    expect(served.body).toMatchObject({ quiz_id: mock.id, cipher: 'A256GCM' })
    expect(served.body.iv).toMatch(/^[\w-]{16}$/)

    const ordinary = await openQuiz(t, {}, { questionCount: 2 })
    expect((await call(mock.learner, 'GET', `/api/quizzes/${ordinary.quiz.id}/live-paper/`)).status).toBe(404)
    expect((await call(mock.learner, 'GET', `/api/quizzes/999999/live-paper/`)).status).toBe(404)
  })

  it('gives the key with the start from starts_at, never before, and it opens the paper without a key', async () => {
    const mock = await registeredMock()
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/quizzes/${mock.id}/questions/${mock.questionIds[1]}/`,
      headers,
      payload: {
        text: { en: 'Where is Pokhara?' },
        hint: { en: 'West of Kathmandu' },
        image: { picture: dataUrl(await png(40, 30)), caption: { en: 'A map' } },
        options: [
          { text: { en: 'Here' }, is_correct: true },
          { text: { en: 'There' }, is_correct: false },
        ],
      },
    })
    expect(edited.statusCode).toBe(200)

    const served = await mock.paper(mock.learner)
    expect(served.status).toBe(200)
    // No route tells the key before the start: the list, the refused start, the paper itself.
    const before = [await call(mock.learner, 'GET', '/api/quizzes/'), await mock.start(mock.learner), served]
    expect(before[1]!.status).toBe(403)
    for (const response of before) expect(response.raw).not.toContain('paper_key')

    t.clock.set(mock.startsAt)
    const started = await mock.start(mock.learner)
    expect(started.status).toBe(200)
    const key = started.body.attempt.paper_key as string
    expect(Buffer.from(key, 'base64url')).toHaveLength(32)
    const content = decrypt(served.body as LivePaper, key)
    expect(content.quiz_id).toBe(mock.id)
    expect(content.questions.map((question) => question.id)).toEqual(mock.questionIds)
    const asShown = await call(mock.learner, 'GET', `/api/quizzes/${mock.id}/question/2/`)
    const { number: _number, ...question } = asShown.body as { number: number; image: { caption: unknown } }
    const ahead = content.questions[1]!
    expect({ ...ahead, image: null }).toEqual({ ...question, image: null, passage: undefined, passage_id: null })
    expect(ahead.image!.picture!.url).toMatch(/^data:image\/webp;base64,/)
    expect(ahead.image!.caption).toEqual(question.image.caption)
    const plain = JSON.stringify(content)
    expect(plain).not.toContain('is_correct')
    expect(plain).not.toContain('hint')
    expect(plain).not.toContain('West of Kathmandu')
    expect(plain).not.toContain('correct')

    // Everyone gets the same bytes, and a second learner's start the same key.
    const other = await createUser(t.database)
    t.clock.set(mock.startsAt - HOUR)
    await register(other, mock.id)
    expect((await mock.paper(other)).body).toEqual(served.body)
    t.clock.set(mock.startsAt + 1)
    expect((await mock.start(other)).body.attempt.paper_key).toBe(key)
  })

  it('gives no key on an ordinary quiz, and a paper edited after the fetch does not open with the new key', async () => {
    const ordinary = await openQuiz(t, {}, { questionCount: 2 })
    const learner = await createUser(t.database)
    const plain = await call(learner, 'GET', `/api/quizzes/${ordinary.quiz.id}/`)
    expect(plain.status).toBe(200)
    expect(plain.raw).not.toContain('paper_key')

    const mock = await registeredMock()
    const old = (await mock.paper(mock.learner)).body as LivePaper
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/quizzes/${mock.id}/questions/${mock.questionIds[0]}/`,
      headers,
      payload: {
        text: { en: 'Corrected text' },
        options: [
          { text: { en: 'Yes' }, is_correct: true },
          { text: { en: 'No' }, is_correct: false },
        ],
      },
    })
    expect(edited.statusCode).toBe(200)
    const fresh = (await mock.paper(mock.learner)).body as LivePaper
    expect(fresh.data).not.toBe(old.data)
    t.clock.set(mock.startsAt)
    const key = (await mock.start(mock.learner)).body.attempt.paper_key as string
    expect(() => decrypt(old, key)).toThrow()
    expect(decrypt(fresh, key).questions[0]!.text.en).toBe('Corrected text')
  })
})
