import { createDecipheriv } from 'node:crypto'
import type { LivePaper, LivePaperContent } from '@quiz/contracts'
import { describe, expect, it } from 'vitest'
import type { UserRow } from '../db/schema'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { questionBody } from '../../test/fixtures/admin.fixtures'
import { multipleBody, numericBody } from '../../test/fixtures/question-types.fixtures'

// API.md "Question types": live mocks and the offline exam carry every type (issue 77): a paper of a multiple
// question marked partially, a numeric one, and a passage of two choice questions.

const MINUTE = 60_000
const GRACE = 2 * MINUTE

function decrypt(paper: LivePaper, key: string): LivePaperContent {
  const data = Buffer.from(paper.data, 'base64url')
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(key, 'base64url'), Buffer.from(paper.iv, 'base64url'))
  decipher.setAuthTag(data.subarray(data.length - 16))
  const plain = Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()])
  return JSON.parse(plain.toString('utf8')) as LivePaperContent
}

describe.each(dialects)('every question type in a live mock and an offline submit on %s', (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsAs(t)

  /** Multiple (4, -2, 1 a right option), numeric (3, no loss), a passage of two choice questions (1, -0.25). */
  async function paper(live: boolean) {
    const admin = await createUser(t.database, { is_admin: 1 })
    const created = await as(admin, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Mixed mock' },
      duration_minutes: 30,
      sections: [
        {
          marks_correct: 4,
          marks_wrong: 2,
          multiple: { scheme: 'partial', partial_marks: 1 },
          items: [multipleBody()],
        },
        { marks_correct: 3, marks_wrong: 1, numeric_negative: false, items: [numericBody()] },
        {
          marks_correct: 1,
          marks_wrong: 0.25,
          items: [
            {
              passage: { text: { en: 'The Koshi river floods in the monsoon.' }, image: null },
              items: [questionBody({ image: null }), questionBody({ image: null })],
            },
          ],
        },
      ],
    })
    expect(created.status, created.raw).toBe(201)
    const quizId: number = created.body.quiz_id
    const startsAt = t.clock.now() + 10 * MINUTE
    if (live) {
      await t.db
        .updateTable('quizzes')
        .set({ live_starts_at: startsAt, live_join_minutes: 5, draw_mode: 'frozen' })
        .where('id', '=', quizId)
        .execute()
    }
    const quiz = (await as(admin, 'GET', `/api/admin/quizzes/${quizId}/`)).body
    const [multiple, numeric, first, second] = quiz.questions as {
      id: number
      options: { id: number; text: { en: string }; is_correct: boolean }[]
    }[]
    const optionId = (en: string) => multiple!.options.find((o) => o.text.en === en)!.id
    const right = (q: typeof first) => q!.options.find((o) => o.is_correct)!.id
    const wrong = (q: typeof first) => q!.options.find((o) => !o.is_correct)!.id
    // One right option of two: +1 partial; 3.14 typed in Devanagari: +3; the passage's first right +1, second wrong -0.25.
    const answers = {
      [multiple!.id]: [optionId('2')],
      [numeric!.id]: '३.१४',
      [first!.id]: right(first),
      [second!.id]: wrong(second),
    }
    const expected = { score: 4.75, correct: 2, incorrect: 2, unanswered: 0, max_score: 9 }
    return { quizId, startsAt, ids: [multiple!.id, numeric!.id, first!.id, second!.id], answers, expected }
  }

  const savedAnswers = async (learner: UserRow, quizId: number) =>
    (await as(learner, 'GET', `/api/quizzes/${quizId}/`)).body.attempt.answers

  it('a live mock: the paper ahead holds the passage once, the typed answers score with partial marks', async () => {
    const { quizId, startsAt, ids, answers, expected } = await paper(true)
    const learner = await createUser(t.database)
    const registered = await t.app.inject({
      method: 'POST',
      url: `/api/quizzes/${quizId}/register/`,
      headers: await bearerFor(t.tokens, learner),
    })
    expect(registered.statusCode).toBe(201)
    t.clock.set(startsAt - MINUTE)
    const ahead = await as(learner, 'GET', `/api/quizzes/${quizId}/live-paper/`)
    expect(ahead.status, ahead.raw).toBe(200)

    t.clock.set(startsAt + MINUTE)
    const started = await as(learner, 'GET', `/api/quizzes/${quizId}/`)
    expect(started.status, started.raw).toBe(200)
    const content = decrypt(ahead.body, started.body.attempt.paper_key)
    expect(content.passages).toHaveLength(1)
    expect(content.questions.map((q) => [q.id, q.type, q.passage_id])).toEqual([
      [ids[0], 'multiple', null],
      [ids[1], 'numeric', null],
      [ids[2], 'choice', content.passages[0]!.id],
      [ids[3], 'choice', content.passages[0]!.id],
    ])
    expect(JSON.stringify(content)).not.toContain('is_correct')

    // An invalid number is refused at its answer, and nothing of that save is kept.
    const refused = await as(learner, 'PUT', `/api/quizzes/${quizId}/answers/`, {
      answers: { [ids[0]!]: answers[ids[0]!], [ids[1]!]: '3.1.4' },
    })
    expect(refused.status).toBe(400)
    expect(refused.body.code).toBe('invalid_number')
    expect(Object.keys(refused.body.errors)).toEqual([`answers.${ids[1]}`])
    expect(await savedAnswers(learner, quizId)).toEqual({})

    // One typed answer alone takes the one-statement save (save-answers.ts), clears included.
    const one = (answer: unknown) =>
      as(learner, 'PUT', `/api/quizzes/${quizId}/answers/`, { answers: { [ids[1]!]: answer } })
    expect((await one('१२')).body).toEqual({ saved: 1 })
    expect(await savedAnswers(learner, quizId)).toEqual({ [ids[1]!]: '12' })
    expect((await one(null)).body).toEqual({ saved: 1 })
    expect(await savedAnswers(learner, quizId)).toEqual({})
    const saved = await as(learner, 'PUT', `/api/quizzes/${quizId}/answers/`, { answers })
    expect(saved.status, saved.raw).toBe(200)
    expect((await savedAnswers(learner, quizId))[ids[1]!]).toBe('3.14')
    const submitted = await as(learner, 'POST', `/api/quizzes/${quizId}/submit/`, { answers: {} })
    expect(submitted.status, submitted.raw).toBe(200)
    expect(submitted.body).toMatchObject(expected)
  })

  it('an offline submit after the time ran out scores every type; an invalid number is refused and nothing is saved', async () => {
    const { quizId, ids, answers, expected } = await paper(false)
    const learner = await createUser(t.database)
    const started = await as(learner, 'GET', `/api/quizzes/${quizId}/`)
    expect(started.status, started.raw).toBe(200)
    const attemptId: number = started.body.attempt.id
    // Offline from the start: the answers reach the server with the submit, inside the grace after the deadline.
    t.clock.advance(30 * MINUTE + GRACE / 2)

    const refused = await as(learner, 'POST', `/api/quizzes/${quizId}/submit/`, {
      attempt_id: attemptId,
      answers: { ...answers, [ids[1]!]: '३.१.४' },
    })
    expect(refused.status).toBe(400)
    expect(refused.body.code).toBe('invalid_number')
    expect(Object.keys(refused.body.errors)).toEqual([`answers.${ids[1]}`])
    const answerRows = await t.db
      .selectFrom('attempt_answers')
      .selectAll()
      .where('attempt_id', '=', attemptId)
      .execute()
    expect(answerRows).toEqual([])

    const submitted = await as(learner, 'POST', `/api/quizzes/${quizId}/submit/`, { attempt_id: attemptId, answers })
    expect(submitted.status, submitted.raw).toBe(200)
    expect(submitted.body).toMatchObject({ ...expected, attempt_id: attemptId })
    expect(submitted.body.sections.map((s: { score: number }) => s.score)).toEqual([1, 3, 0.75])
  })
})
