import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { multipart } from '../../test/auth-requests'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { questionBody } from '../../test/fixtures/admin.fixtures'
import { useTestApp } from '../../test/test-app'
import { writtenPaper } from '../../test/written-papers'

describe.each(dialects)("a learner's written results on %s", (dialect) => {
  const t = useTestApp(dialect)

  it('says marking is pending with the written part unreleased, then released with its marks in the score', async () => {
    const paper = await writtenPaper(t)
    const { user, attemptId, answerId } = await paper.sit()
    const report = await paper.as(user, 'GET', `/api/results/${attemptId}/`)
    expect(report.status).toBe(200)
    // The choice part (1) only, until release.
    expect(report.body).toMatchObject({
      score: 1,
      marking: 'pending',
      written: { marks: 0, max_marks: 10, released: 0, total: 1 },
    })
    const list = await paper.as(user, 'GET', '/api/results/')
    expect(list.body[0].attempts[0]).toMatchObject({ marking: 'pending', written: { released: 0, total: 1 } })

    // Marked but not released: nothing changes for the learner.
    await paper.mark(answerId, { adjustment: 650 })
    expect((await paper.as(user, 'GET', `/api/results/${attemptId}/`)).body.marking).toBe('pending')
    await paper.release()
    const released = await paper.as(user, 'GET', `/api/results/${attemptId}/`)
    expect(released.body).toMatchObject({
      score: 7.5,
      marking: 'released',
      written: { marks: 6.5, max_marks: 10, released: 1, total: 1 },
    })
    const listed = await paper.as(user, 'GET', '/api/results/')
    expect(listed.body[0].attempts[0]).toMatchObject({ score: 7.5, marking: 'released', written: { marks: 6.5 } })
  })

  it("counts written questions in none of the choice part's figures: the report card, its analysis and progress agree with the submit", async () => {
    const paper = await writtenPaper(t)
    const { user, attemptId, answerId, submitted } = await paper.sit()
    // The submit scores the choice question alone (right: 1 of 1).
    expect(submitted).toMatchObject({ total_questions: 1, correct: 1, unanswered: 0, max_score: 1 })
    // Its key is shown once pages are no longer taken (docs/decisions/090): 15 minutes of upload grace.
    t.clock.advance(15 * 60_000 + 1)
    const report = await paper.as(user, 'GET', `/api/results/${attemptId}/`)
    expect(report.body).toMatchObject({
      correct: 1,
      incorrect: 0,
      unanswered: 0,
      max_score: 1,
      sections: [{ score: 1, max_score: 1, correct: 1, incorrect: 0, unanswered: 0 }],
      written: { max_marks: 10, total: 1 },
    })
    const topics = (report.body.analysis.topics as { topic: string }[]).map((topic) => topic.topic)
    expect(topics).not.toContain('Constitution')
    // Progress counts the attempt once its written part is released (API.md), with the written marks in its score
    // and in its most: a share of the score over the choice part's most alone would pass 100 %.
    const pending = await paper.as(user, 'GET', '/api/results/progress/')
    expect(pending.body).toMatchObject({ attempts: [], topics: [] })
    await paper.mark(answerId, { adjustment: 650 })
    await paper.release()
    const progress = await paper.as(user, 'GET', '/api/results/progress/')
    expect(progress.body.attempts).toEqual([
      expect.objectContaining({ score: 7.5, total_questions: 1, unanswered: 0, max_score: 11 }),
    ])
    expect((progress.body.topics as { topic: string }[]).map((topic) => topic.topic)).not.toContain('Constitution')
    // The report card's max_score stays the choice part's; the written part's most is beside it.
    const marked = await paper.as(user, 'GET', `/api/results/${attemptId}/`)
    expect(marked.body).toMatchObject({ score: 7.5, max_score: 1, written: { marks: 6.5, max_marks: 10 } })
  })

  it('says marking none and written null for a paper without written questions', async () => {
    const paper = await writtenPaper(t)
    const created = await paper.as(paper.admin, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Choice only' },
      questions: [questionBody({ image: null })],
    })
    const learner = await createUser(t.database)
    const started = await paper.as(learner, 'GET', `/api/quizzes/${created.body.quiz_id}/`)
    await paper.as(learner, 'POST', `/api/quizzes/${created.body.quiz_id}/submit/`, { answers: {} })
    const report = await paper.as(learner, 'GET', `/api/results/${started.body.attempt.id}/`)
    expect(report.body).toMatchObject({ marking: 'none', written: null })
    const list = await paper.as(learner, 'GET', '/api/results/')
    expect(list.body[0].attempts[0]).toMatchObject({ marking: 'none', written: null })
  })

  it("shows the learner's answer, and the items, comment, annotations and model answer only once released", async () => {
    const paper = await writtenPaper(t)
    const rubric = await paper.rubric('PUT', {
      revision: 0,
      groups: [],
      items: [
        { points: 6, title: { en: 'Names Article 242' }, explanation: { en: 'The Commission is in Part 23.' } },
        { points: 2, title: { en: 'Gives an example' } },
      ],
    })
    expect(rubric.status).toBe(200)
    const [named, example] = rubric.body.rubric.items as { id: number }[]
    const learner = await createUser(t.database)
    const started = await paper.as(learner, 'GET', `/api/quizzes/${paper.quizId}/`)
    const attemptId: number = started.body.attempt.id
    const base = `/api/attempts/${attemptId}/written/${paper.questionId}`
    await paper.as(learner, 'PUT', `${base}/text/`, { text: 'लोक सेवा आयोग' })
    const photo = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#eee' } })
      .jpeg()
      .toBuffer()
    const form = multipart({}, [{ field: 'image', filename: 'p.jpg', contentType: 'image/jpeg', data: photo }])
    const page = await t.app.inject({
      method: 'POST',
      url: `${base}/pages/`,
      headers: { ...(await bearerFor(t.tokens, learner)), ...form.headers },
      payload: form.payload,
    })
    expect(page.statusCode).toBe(201)
    const pageId: number = page.json().id
    await paper.as(learner, 'POST', `/api/quizzes/${paper.quizId}/submit/`, { answers: {} })
    const url = `/api/results/${attemptId}/written/${paper.questionId}/`

    const waiting = await paper.as(learner, 'GET', url)
    expect(waiting.status).toBe(200)
    expect(waiting.body).toMatchObject({
      status: 'submitted',
      marks: null,
      max_marks: 10,
      items: [],
      adjustment: null,
      comment: null,
      pages: [{ id: pageId, width: 80, height: 60, annotations: null }],
      text: 'लोक सेवा आयोग',
      word_count: 3,
      model_answer: null,
      regrade: { open_until: null, request: null },
    })
    expect((await t.app.inject({ method: 'GET', url: waiting.body.pages[0].url })).statusCode).toBe(200)

    const answer = await t.db
      .selectFrom('written_answers')
      .select('id')
      .where('attempt_id', '=', attemptId)
      .executeTakeFirstOrThrow()
    await paper.mark(answer.id, { items: [named!.id, example!.id], adjustment: -50, comment: { en: 'Good', ne: '' } })
    const doc = { v: 1, marks: [{ k: 'stamp', code: 'tick', x: 10, y: 20 }] }
    await t.db
      .updateTable('written_answer_pages')
      .set({ annotations: JSON.stringify(doc) })
      .where('id', '=', pageId)
      .execute()
    // Marked is not yet the learner's to see.
    expect((await paper.as(learner, 'GET', url)).body).toMatchObject({ status: 'submitted', marks: null, items: [] })

    await paper.release()
    const shown = await paper.as(learner, 'GET', url)
    expect(shown.body).toMatchObject({
      status: 'released',
      marks: 7.5,
      items: [
        {
          id: named!.id,
          title: { en: 'Names Article 242' },
          points: 6,
          explanation: { en: 'The Commission is in Part 23.' },
        },
        { id: example!.id, title: { en: 'Gives an example' }, points: 2, explanation: null },
      ],
      adjustment: -0.5,
      comment: { en: 'Good', ne: '' },
      pages: [{ id: pageId, annotations: doc }],
      model_answer: { en: 'An independent body that ...', ne: '' },
      regrade: { open_until: new Date(t.clock.now() + 7 * 86_400_000).toISOString(), request: null },
    })
  })

  it("answers 404 for another learner's attempt, a question not written or not in it, and an attempt in progress", async () => {
    const paper = await writtenPaper(t)
    const { user, attemptId } = await paper.sit()
    const url = `/api/results/${attemptId}/written/${paper.questionId}/`
    expect((await paper.as(user, 'GET', url)).status).toBe(200)
    expect((await paper.as(await createUser(t.database), 'GET', url)).status).toBe(404)
    expect((await paper.as(user, 'GET', `/api/results/${attemptId}/written/${paper.choiceId}/`)).status).toBe(404)
    expect((await paper.as(user, 'GET', `/api/results/${attemptId}/written/999999/`)).status).toBe(404)
    const learner = await createUser(t.database)
    const running = await paper.as(learner, 'GET', `/api/quizzes/${paper.quizId}/`)
    const inProgress = `/api/results/${running.body.attempt.id}/written/${paper.questionId}/`
    expect((await paper.as(learner, 'GET', inProgress)).status).toBe(404)
  })
})
