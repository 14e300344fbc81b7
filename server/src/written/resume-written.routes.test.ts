import type { FastifyRequest } from 'fastify'
import type { RootOperationNode } from 'kysely'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import type { UserRow } from '../db/schema'
import { multipart } from '../../test/auth-requests'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { openQuiz } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { writtenPaper } from '../../test/written-papers'

// docs/decisions/081: the running attempt's payload (GET /api/quizzes/{id}/, start and resume) carries the learner's
// own saved written answers, so another device (or a cleared browser) starts from them.

const photo = (colour: string) =>
  sharp({ create: { width: 60, height: 40, channels: 3, background: colour } })
    .jpeg()
    .toBuffer()

/** Each request's statements that read or write written answers, by the request's URL. */
const writtenReads: { url: string; statement: string }[] = []
const recordWrittenReads = (request: FastifyRequest) => ({
  requestId: request.id,
  transformQuery(node: RootOperationNode) {
    const statement = JSON.stringify(node)
    if (statement.includes('"written_answers"')) writtenReads.push({ url: request.url, statement: node.kind })
    return node
  },
})

describe.each(dialects)('a running attempt carries its written answers on %s', (dialect) => {
  const t = useTestApp(dialect, {}, { requestScope: recordWrittenReads })

  async function upload(user: UserRow, url: string, image: Buffer) {
    const form = multipart({}, [{ field: 'image', filename: 'page.jpg', contentType: 'image/jpeg', data: image }])
    const response = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...(await bearerFor(t.tokens, user)), ...form.headers },
      payload: form.payload,
    })
    expect(response.statusCode).toBe(201)
    return response.json() as { id: number; url: string }
  }

  it('gives the learner their own text, word count and pages in order; another learner never sees them', async () => {
    const { as, quizId, questionId, choiceId } = await writtenPaper(t)
    const learner = await createUser(t.database)
    const begun = await as(learner, 'GET', `/api/quizzes/${quizId}/`)
    const attemptId: number = begun.body.attempt.id
    // A start: every written question, empty (the choice question is not one).
    expect(begun.body.attempt.written).toEqual({ [questionId]: { text: '', word_count: 0, pages: [] } })

    const base = `/api/attempts/${attemptId}/written/${questionId}`
    const text = 'लोक सेवा आयोग एक संवैधानिक निकाय हो। It recruits civil servants.'
    expect((await as(learner, 'PUT', `${base}/text/`, { text })).body).toEqual({ word_count: 11 })
    const first = await upload(learner, `${base}/pages/`, await photo('#aa0000'))
    const second = await upload(learner, `${base}/pages/`, await photo('#00aa00'))
    expect((await as(learner, 'PUT', `${base}/pages/`, { order: [second.id, first.id] })).status).toBe(200)

    // Another device resumes: the same attempt, with the text and the pages in the learner's order.
    const resumed = await as(learner, 'GET', `/api/quizzes/${quizId}/`)
    expect(resumed.body.attempt.id).toBe(attemptId)
    const written = resumed.body.attempt.written
    expect(Object.keys(written)).toEqual([String(questionId)])
    expect(written[questionId]).toMatchObject({
      text,
      word_count: 11,
      pages: [
        { id: second.id, number: 1, width: 60, height: 40 },
        { id: first.id, number: 2, width: 60, height: 40 },
      ],
    })
    expect(written).not.toHaveProperty(String(choiceId))
    // The pages' addresses are signed like the upload's: an <img> on the other device loads them.
    for (const page of written[questionId].pages as { url: string }[]) {
      const image = await t.app.inject({ method: 'GET', url: page.url })
      expect(image.statusCode).toBe(200)
      expect(image.headers['content-type']).toBe('image/jpeg')
    }

    // Another learner's attempt at the same quiz holds none of it.
    const other = await createUser(t.database)
    const theirs = await as(other, 'GET', `/api/quizzes/${quizId}/`)
    expect(theirs.body.attempt.id).not.toBe(attemptId)
    expect(theirs.body.attempt.written).toEqual({ [questionId]: { text: '', word_count: 0, pages: [] } })
    await as(other, 'PUT', `/api/attempts/${theirs.body.attempt.id}/written/${questionId}/text/`, { text: 'Mine' })
    expect((await as(other, 'GET', `/api/quizzes/${quizId}/`)).body.attempt.written[questionId].text).toBe('Mine')
    expect((await as(learner, 'GET', `/api/quizzes/${quizId}/`)).body.attempt.written[questionId].text).toBe(text)
  })

  it('after submit, as today: the next attempt starts empty and the finished answer is read on its result', async () => {
    const { as, quizId, questionId } = await writtenPaper(t)
    const learner = await createUser(t.database)
    const attemptId: number = (await as(learner, 'GET', `/api/quizzes/${quizId}/`)).body.attempt.id
    const base = `/api/attempts/${attemptId}/written/${questionId}`
    await as(learner, 'PUT', `${base}/text/`, { text: 'Handed in' })
    const page = await upload(learner, `${base}/pages/`, await photo('#0000aa'))
    expect((await as(learner, 'POST', `/api/quizzes/${quizId}/submit/`, { answers: {} })).status).toBe(200)

    // The quiz allows three attempts: the next one is new, and carries nothing of the one handed in.
    const next = await as(learner, 'GET', `/api/quizzes/${quizId}/`)
    expect(next.status).toBe(200)
    expect(next.body.attempt.id).not.toBe(attemptId)
    expect(next.body.attempt.written).toEqual({ [questionId]: { text: '', word_count: 0, pages: [] } })
    expect(next.raw).not.toContain('Handed in')
    expect(next.raw).not.toContain(`/written-pages/${page.id}/`)
    // The finished answer is its owner's on the result, and nobody else's.
    const result = await as(learner, 'GET', `/api/results/${attemptId}/written/${questionId}/`)
    expect(result.body).toMatchObject({ text: 'Handed in', pages: [{ id: page.id }] })
    const stranger = await createUser(t.database)
    expect((await as(stranger, 'GET', `/api/results/${attemptId}/written/${questionId}/`)).status).toBe(404)
  })

  it('reads written answers only when resuming a paper with written questions, in one statement', async () => {
    const { as, quizId } = await writtenPaper(t)
    const learner = await createUser(t.database)
    const url = `/api/quizzes/${quizId}/`
    writtenReads.length = 0
    await as(learner, 'GET', url)
    expect(writtenReads).toEqual([])
    await as(learner, 'GET', url)
    expect(writtenReads).toEqual([{ url, statement: 'SelectQueryNode' }])

    const { quiz: choices } = await openQuiz(t)
    const choiceUrl = `/api/quizzes/${choices.id}/`
    writtenReads.length = 0
    const started = await as(learner, 'GET', choiceUrl)
    const resumed = await as(learner, 'GET', choiceUrl)
    expect(resumed.body.attempt.id).toBe(started.body.attempt.id)
    expect(resumed.body.attempt).not.toHaveProperty('written')
    expect(writtenReads).toEqual([])
  })
})
