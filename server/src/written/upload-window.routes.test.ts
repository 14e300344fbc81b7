import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import type { UserRow } from '../db/schema'
import { multipart } from '../../test/auth-requests'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { writtenPaper } from '../../test/written-papers'

// Issue 72: the upload grace is for photos, not writing time after the choice key is shown (docs/decisions/090).

const MINUTE = 60_000
const photo = (colour: string) =>
  sharp({ create: { width: 60, height: 40, channels: 3, background: colour } })
    .jpeg()
    .toBuffer()

describe.each(dialects)('the written upload window and the choice key on %s', (dialect) => {
  const t = useTestApp(dialect)

  async function upload(user: UserRow, url: string, data: Buffer) {
    const form = multipart({}, [{ field: 'image', filename: 'page.jpg', contentType: 'image/jpeg', data }])
    const response = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...(await bearerFor(t.tokens, user)), ...form.headers },
      payload: form.payload,
    })
    return { status: response.statusCode, body: response.json() }
  }

  /** A learner who answers the choice question wrong and submits 10 minutes in, 80 minutes before the deadline. */
  async function submittedEarly() {
    const paper = await writtenPaper(t)
    const quiz = await paper.as(paper.admin, 'GET', `/api/admin/quizzes/${paper.quizId}/`)
    const wrong: number = quiz.body.questions[0].options.find((o: { is_correct: boolean }) => !o.is_correct).id
    const learner = await createUser(t.database)
    const begun = await paper.as(learner, 'GET', `/api/quizzes/${paper.quizId}/`)
    const attemptId: number = begun.body.attempt.id
    t.clock.advance(10 * MINUTE)
    const submitted = await paper.as(learner, 'POST', `/api/quizzes/${paper.quizId}/submit/`, {
      answers: { [paper.choiceId]: wrong },
    })
    expect(submitted.status).toBe(200)
    // A section's tally would tell its key, as the report's would.
    expect(submitted.body.sections).toEqual([])
    const pages = `/api/attempts/${attemptId}/written/${paper.questionId}/pages/`
    return { ...paper, learner, attemptId, pages, submittedAt: t.clock.now() }
  }

  it("takes pages for the upload grace after the submission, not the deadline's, and withholds the key meanwhile", async () => {
    const paper = await submittedEarly()
    const report = () => paper.as(paper.learner, 'GET', `/api/results/${paper.attemptId}/`)
    const held = await report()
    expect(held.body).toMatchObject({
      key_withheld: 'written_uploads',
      key_withheld_until: new Date(paper.submittedAt + 15 * MINUTE).toISOString(),
      sections: [],
      analysis: { topics: [] },
    })
    const isCorrect = (held.body.questions as { options?: { is_correct: boolean }[] }[]).flatMap((question) =>
      (question.options ?? []).map((option) => option.is_correct),
    )
    expect(isCorrect.length).toBeGreaterThan(0)
    expect(isCorrect.every((value) => value === false)).toBe(true)
    expect((await upload(paper.learner, paper.pages, await photo('#111'))).status).toBe(201)

    t.clock.advance(15 * MINUTE)
    expect((await upload(paper.learner, paper.pages, await photo('#222'))).status).toBe(201)
    t.clock.advance(1)
    // The grace from the submission is over, though the deadline plus grace is more than an hour away.
    const late = await upload(paper.learner, paper.pages, await photo('#333'))
    expect(late).toMatchObject({ status: 409, body: { code: 'upload_closed' } })
    const shown = await report()
    expect(shown.body).toMatchObject({ key_withheld: null, key_withheld_until: null })
    expect(shown.body.sections).toHaveLength(1)
  })

  it("keeps the submitted attempt's questions out of practice until its pages close", async () => {
    const paper = await submittedEarly()
    const deck = async () =>
      (await paper.as(paper.learner, 'GET', '/api/practice/')).body.cards.map(
        (card: { question: { id: number } }) => card.question.id,
      )
    expect(await deck()).not.toContain(paper.choiceId)
    const answered = await paper.as(paper.learner, 'POST', `/api/practice/${paper.choiceId}/`, { option_id: 1 })
    expect(answered.status).toBe(404)
    t.clock.advance(15 * MINUTE + 1)
    expect(await deck()).toContain(paper.choiceId)
  })

  it('still takes pages until the deadline plus grace from a learner who never submits', async () => {
    const paper = await writtenPaper(t)
    const learner = await createUser(t.database)
    const begun = await paper.as(learner, 'GET', `/api/quizzes/${paper.quizId}/`)
    const pages = `/api/attempts/${begun.body.attempt.id}/written/${paper.questionId}/pages/`
    // 90 minutes and 15 of grace.
    t.clock.advance(105 * MINUTE)
    expect((await upload(learner, pages, await photo('#444'))).status).toBe(201)
    t.clock.advance(1)
    expect((await upload(learner, pages, await photo('#555'))).status).toBe(409)
  })

  it("keeps a live mock's choice key until a ranked learner's pages close, not only the submit grace (issue 72)", async () => {
    const paper = await writtenPaper(t)
    const quizPath = `/api/admin/quizzes/${paper.quizId}/`
    const duration: number = (await paper.as(paper.admin, 'GET', quizPath)).body.duration_minutes
    const startsAt = t.clock.now() + MINUTE
    const live = { live: { starts_at: new Date(startsAt).toISOString(), join_minutes: 5 } }
    expect((await paper.as(paper.admin, 'PATCH', quizPath, live)).status).toBe(200)
    t.clock.set(startsAt)
    const sat = await paper.sit()
    const commonEnd = startsAt + duration * MINUTE
    const report = () => paper.as(sat.user, 'GET', `/api/results/${sat.attemptId}/`)

    // Past the submit grace, a ranked learner who submits at the end may still send pages for 15 minutes.
    t.clock.set(commonEnd + 5 * MINUTE)
    expect((await report()).body).toMatchObject({
      key_withheld: 'live',
      key_withheld_until: new Date(commonEnd + 15 * MINUTE).toISOString(),
    })
    t.clock.set(commonEnd + 15 * MINUTE + 1)
    expect((await report()).body).toMatchObject({ key_withheld: null, key_withheld_until: null })
  })
})
