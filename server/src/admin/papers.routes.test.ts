import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createBankQuestions, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { HOSTILE_SVG, SANITISED_HOSTILE_SVG, questionBody } from '../../test/fixtures/admin.fixtures'

// API.md "Papers: sections, marks and draws": writing a paper, and every refusal with its field's path.
describe.each(dialects)('papers on %s', (dialect) => {
  const t = useTestApp(dialect)

  const bankQuestions = (topic: string, n: number) => createBankQuestions(t.db, topic, n, t.clock.now())

  async function setup() {
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/quizzes/create-from-json/',
      headers,
      payload: { title: { en: 'Paper' }, questions: [questionBody({ image: null })] },
    })
    const quizId = created.json().quiz_id as number
    const put = (sections: unknown) =>
      t.app.inject({ method: 'PUT', url: `/api/admin/quizzes/${quizId}/sections/`, headers, payload: { sections } })
    const get = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/admin/quizzes/${quizId}/`, headers })).json()
    return { headers, quizId, put, get }
  }

  it('replaces the paper with timed sections of fixed items and draws; the duration is their sum', async () => {
    const { headers, quizId, put, get } = await setup()
    const fixed = await bankQuestions('gk', 2)
    await bankQuestions('maths', 12)
    const response = await put([
      {
        title: { en: 'General', ne: 'सामान्य' },
        marks_correct: 2,
        marks_wrong: 0.4,
        time_limit_minutes: 20,
        items: fixed.map((id) => ({ question_id: id })),
      },
      {
        title: { en: 'Maths' },
        marks_correct: 1,
        marks_wrong: 0.25,
        time_limit_minutes: 40,
        items: [{ draw: { topic: 'maths', count: 10 } }],
      },
    ])
    expect(response.statusCode, response.body).toBe(200)
    const detail = await get()
    expect(detail).toMatchObject({ question_count: 12, duration_minutes: 60, draw_mode: 'per_attempt', warnings: [] })
    expect(detail.questions.map((q: { id: number }) => q.id)).toEqual(fixed)
    expect(detail.sections).toEqual([
      {
        id: expect.any(Number),
        title: { en: 'General', ne: 'सामान्य' },
        marks_correct: 2,
        marks_wrong: 0.4,
        time_limit_minutes: 20,
        multiple: { scheme: 'all_or_nothing', partial_marks: 1 },
        numeric_negative: true,
        items: fixed.map((id) => ({ question_id: id })),
      },
      {
        id: expect.any(Number),
        title: { en: 'Maths', ne: '' },
        marks_correct: 1,
        marks_wrong: 0.25,
        time_limit_minutes: 40,
        multiple: { scheme: 'all_or_nothing', partial_marks: 1 },
        numeric_negative: true,
        items: [
          {
            draw: { topic: 'maths', tags: [], difficulty: null, source: null, type: null, count: 10, passages: false },
            pool: 12,
            drawn: [],
          },
        ],
      },
    ])
    // A PATCH may restate a timed paper's duration, never change it.
    const patch = (duration_minutes: number) =>
      t.app.inject({ method: 'PATCH', url: `/api/admin/quizzes/${quizId}/`, headers, payload: { duration_minutes } })
    expect((await patch(60)).statusCode).toBe(200)
    const refused = await patch(90)
    expect(refused.statusCode).toBe(400)
    expect(refused.json().errors.duration_minutes).toEqual([
      "This quiz's duration is the sum of its sections' time limits.",
    ])
  })

  it('refuses unknown and repeated questions, small pools, draws that cannot all fill, mixed times, too many questions and 3 decimals', async () => {
    const { put, get } = await setup()
    const before = await get()
    const [a] = await bankQuestions('history', 7)
    await bankQuestions('art', 5)
    const errorsOf = async (sections: unknown) => {
      const response = await put(sections)
      expect(response.statusCode).toBe(400)
      return response.json().errors as Record<string, string[]>
    }
    expect(
      await errorsOf([
        { items: [{ question_id: a }, { question_id: 999_999 }] },
        { items: [{ question_id: a }, { draw: { topic: 'history', count: 7 } }] },
      ]),
    ).toEqual({
      'sections.0.items.1.question_id': ['No such question in the bank.'],
      'sections.1.items.0.question_id': ['This question is already in the paper.'],
      // Seven match, one of them is fixed in this paper.
      'sections.1.items.1.draw.count': ['Only 6 questions match.'],
    })
    // Each draw alone fits, together they need 8 of the 7 history questions (Hall's condition).
    const together = await errorsOf([
      {
        items: [
          { draw: { topic: 'history', count: 4 } },
          { draw: { topic: 'history', count: 4 } },
          { draw: { topic: 'art', count: 5 } },
        ],
      },
    ])
    expect(together).toEqual({
      'sections.0.items.0.draw': [expect.stringContaining('need 8 different questions, but only 7')],
      'sections.0.items.1.draw': [expect.stringContaining('need 8 different questions, but only 7')],
    })
    expect(
      await errorsOf([
        { time_limit_minutes: 10, items: [{ draw: { topic: 'art', count: 1 } }] },
        { items: [{ draw: { topic: 'history', count: 1 } }] },
      ]),
    ).toEqual({ sections: ['Either every section has a time limit or none has.'] })
    expect(await errorsOf([{ items: [{ draw: { count: 500 } }] }, { items: [{ draw: { count: 1 } }] }])).toMatchObject({
      sections: ['A paper may hold at most 500 questions.'],
    })
    expect(await errorsOf([{ marks_correct: 1.005, marks_wrong: 0.333, items: [{ question_id: a }] }])).toEqual({
      'sections.0.marks_correct': ['Marks may have at most 2 decimals.'],
      'sections.0.marks_wrong': ['Marks may have at most 2 decimals.'],
    })
    // Nothing of any refused paper was stored.
    expect(await get()).toEqual(before)
  })

  it('creates a quiz from JSON with sections of inline questions, bank questions and draws, or nothing at all', async () => {
    const { headers } = await setup()
    const [bank] = await bankQuestions('polity', 3)
    const post = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/quizzes/create-from-json/', headers, payload })
    const questionsBefore = (await t.db.selectFrom('questions').select('id').execute()).length
    const refused = await post({
      title: { en: 'Mock' },
      sections: [
        { items: [questionBody({ image: null }), { question_id: bank }] },
        { items: [{ draw: { topic: 'polity', count: 3 } }] },
      ],
    })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().errors).toEqual({ 'sections.1.items.0.draw.count': ['Only 2 questions match.'] })
    // The inline question of the refused quiz was not kept.
    expect((await t.db.selectFrom('questions').select('id').execute()).length).toBe(questionsBefore)

    const created = await post({
      title: { en: 'Mock' },
      draw_mode: 'frozen',
      sections: [
        { title: { en: 'A' }, time_limit_minutes: 5, items: [questionBody({ image: null }), { question_id: bank }] },
        { title: { en: 'B' }, time_limit_minutes: 7, items: [{ draw: { topic: 'polity', count: 2 } }] },
      ],
    })
    expect(created.statusCode, created.body).toBe(201)
    const detail = (
      await t.app.inject({ method: 'GET', url: `/api/admin/quizzes/${created.json().quiz_id}/`, headers })
    ).json()
    expect(detail).toMatchObject({ question_count: 4, duration_minutes: 12, draw_mode: 'frozen' })
    expect(detail.sections[0].items).toEqual([{ question_id: detail.questions[0].id }, { question_id: bank }])
    const mismatch = await post({
      title: { en: 'Mock' },
      duration_minutes: 30,
      sections: [{ time_limit_minutes: 5, items: [{ question_id: bank }] }],
    })
    expect(mismatch.json().errors).toEqual({
      duration_minutes: ["This quiz's duration is the sum of its sections' time limits."],
    })
  })

  it("sanitises the SVGs and checks the maths of a section's inline questions, as of a quiz's questions", async () => {
    const { headers } = await setup()
    const post = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/quizzes/create-from-json/', headers, payload })
    const refused = await post({
      title: { en: 'Mock' },
      sections: [{ items: [questionBody({ image: null }), questionBody({ text: { en: 'Half is $\\frac{1}$' } })] }],
    })
    expect(refused.statusCode).toBe(400)
    expect(Object.keys(refused.json().errors)).toEqual(['sections.0.items.1.text.en'])

    const created = await post({
      title: { en: 'Mock' },
      sections: [{ items: [questionBody({ image: { svg: HOSTILE_SVG }, text: { en: 'Half is $\\frac{1}{2}$' } })] }],
    })
    expect(created.statusCode, created.body).toBe(201)
    const [question] = (
      await t.app.inject({ method: 'GET', url: `/api/admin/quizzes/${created.json().quiz_id}/`, headers })
    ).json().questions
    expect(question.image.svg).toBe(SANITISED_HOSTILE_SVG)
    expect(question.text.html.en).toContain('<math')
  })
})
