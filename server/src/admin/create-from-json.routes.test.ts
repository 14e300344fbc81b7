import { readFileSync } from 'node:fs'
import { adminMessages } from '@quiz/contracts'
import { describe, expect, it } from 'vitest'
import { svgRejections } from '../svg/sanitize-svg'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import {
  DEVANAGARI_SVG,
  HOSTILE_SVG,
  SANITISED_HOSTILE_SVG,
  TRIANGLE_SVG,
  questionBody,
  svgOfSize,
  twoOptions,
} from '../../test/fixtures/admin.fixtures'

const MB = 1024 * 1024
/** The part of an admin quiz detail these tests read. */
interface DetailQuestion {
  options: { text: { en: string }; is_correct: boolean; image: { svg: string } }[]
  image: { svg: string }
}
const URL = '/api/quizzes/create-from-json/'
const docs = (file: string) => readFileSync(new globalThis.URL(`../../../docs/${file}`, import.meta.url), 'utf8')
const example = JSON.parse(docs('examples/quiz.json'))

it('documents the same example in docs/admin-quiz-json.md as in docs/examples/quiz.json', () => {
  const page = docs('admin-quiz-json.md')
  const section = page.slice(page.indexOf('## A complete example'))
  const block = /```json\n([\s\S]*?)```/.exec(section)![1]!
  expect(JSON.parse(block)).toEqual(example)
})

describe.each(dialects)('POST /api/quizzes/create-from-json/ on %s', (dialect) => {
  const t = useTestApp(dialect)

  const asAdmin = async () => bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))

  async function create(payload: unknown, headers?: Record<string, string>) {
    return t.app.inject({ method: 'POST', url: URL, headers: headers ?? (await asAdmin()), payload: payload as object })
  }

  async function detail(id: number, headers?: Record<string, string>) {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/admin/quizzes/${id}/`,
      headers: headers ?? (await asAdmin()),
    })
    expect(response.statusCode).toBe(200)
    return response.json()
  }

  async function expectNothingCreated() {
    for (const table of ['quizzes', 'questions', 'question_revisions', 'question_options'] as const) {
      expect(await t.db.selectFrom(table).select('id').execute()).toEqual([])
    }
  }

  it('answers 201 with the quiz id and applies the defaults of SPEC.md to absent fields', async () => {
    const response = await create({
      title: { en: 'Defaults' },
      questions: [{ text: { en: 'Q' }, options: twoOptions }],
    })

    expect(response.statusCode).toBe(201)
    expect(response.json()).toEqual({ quiz_id: expect.any(Number) })
    const quiz = await detail(response.json().quiz_id)
    expect(quiz).toMatchObject({
      title: { en: 'Defaults', ne: '' },
      start_time: new Date(t.clock.now()).toISOString(),
      end_time: null,
      duration_minutes: 90,
      allowed_attempts: 3,
      difficulty: 'medium',
      is_paid_tier: false,
      question_count: 1,
    })
    expect(quiz.questions[0]).toMatchObject({ text: { en: 'Q', ne: '' }, hint: null, topic: '', image: null })
    expect(quiz.questions[0].options.map((o: { is_correct: boolean }) => o.is_correct)).toEqual([true, false])
  })

  it('treats null start and end as absent', async () => {
    const response = await create({
      title: { en: 'Open' },
      start_time: null,
      end_time: null,
      questions: [questionBody()],
    })
    expect(response.statusCode).toBe(201)
    expect(await detail(response.json().quiz_id)).toMatchObject({
      start_time: new Date(t.clock.now()).toISOString(),
      end_time: null,
    })
  })

  it('creates the example of docs/admin-quiz-json.md exactly as written', async () => {
    const headers = await asAdmin()
    const response = await create(example, headers)

    expect(response.statusCode).toBe(201)
    const quiz = await detail(response.json().quiz_id, headers)
    expect(quiz).toMatchObject({
      title: { en: 'Basic Geometry', ne: 'आधारभूत ज्यामिति' },
      // No dates in the example: it opens when created and stays open, whenever a newcomer follows the README.
      start_time: new Date(t.clock.now()).toISOString(),
      end_time: null,
      duration_minutes: 30,
      allowed_attempts: 2,
      difficulty: 'easy',
      is_paid_tier: false,
      question_count: 3,
    })
    const [first, second, third] = quiz.questions
    expect(first).toMatchObject({
      text: example.questions[0].text,
      hint: example.questions[0].hint,
      topic: 'shapes',
      image: { svg: example.questions[0].image.svg, caption: example.questions[0].image.caption },
    })
    expect(first.options.map((o: { text: { ne: string } }) => o.text.ne)).toEqual(['३', '४', '५', '६'])
    expect(second.options[0]).toMatchObject({
      is_correct: true,
      image: { svg: example.questions[1].options[0].image.svg },
    })
    expect(second.options[1]).toMatchObject({ is_correct: false, text: { en: 'B', ne: 'ख' } })
    expect(third).toMatchObject({
      hint: null,
      topic: '',
      text: { en: 'The angles of a triangle add up to 180 degrees.', ne: '' },
    })
  })

  it('keeps the order of questions and options, and sanitises every SVG', async () => {
    const questions = Array.from({ length: 12 }, (_, i) =>
      questionBody({
        text: { en: `Question ${i + 1}` },
        image: { svg: i % 2 ? HOSTILE_SVG : TRIANGLE_SVG },
        options: ['A', 'B', 'C'].map((letter, j) => ({
          text: { en: `${letter}${i + 1}` },
          is_correct: j === i % 3,
          image: j === 0 ? { svg: HOSTILE_SVG } : null,
        })),
      }),
    )
    const response = await create({ title: { en: 'Order' }, questions })
    expect(response.statusCode).toBe(201)

    const quiz = await detail(response.json().quiz_id)
    expect(quiz.questions.map((q: { text: { en: string } }) => q.text.en)).toEqual(questions.map((q) => q.text.en))
    quiz.questions.forEach((question: DetailQuestion, i: number) => {
      expect(question.options.map((o) => o.text.en)).toEqual([`A${i + 1}`, `B${i + 1}`, `C${i + 1}`])
      expect(question.options.map((o) => o.is_correct)).toEqual([0, 1, 2].map((j) => j === i % 3))
      expect(question.image.svg).toBe(i % 2 ? SANITISED_HOSTILE_SVG : TRIANGLE_SVG)
      expect(question.options[0].image.svg).toBe(SANITISED_HOSTILE_SVG)
    })
    const svgs = await t.db
      .selectFrom('question_options')
      .select('image_svg')
      .where('image_svg', 'is not', null)
      .execute()
    expect(svgs).toHaveLength(12)
    for (const { image_svg } of svgs) expect(image_svg).not.toMatch(/script|onload/)
  })

  it('takes 500 questions, the most allowed', async () => {
    const questions = Array.from({ length: 500 }, (_, i) => ({
      text: { en: `Q${i + 1}` },
      options: Array.from({ length: 10 }, (_, j) => ({ text: { en: `O${j + 1}` }, is_correct: j === 9 })),
    }))
    const response = await create({ title: { en: 'Big' }, questions })
    expect(response.statusCode).toBe(201)
    const quiz = await detail(response.json().quiz_id)
    expect(quiz.question_count).toBe(500)
    expect(quiz.questions[499].text.en).toBe('Q500')
    expect(quiz.questions[499].options).toHaveLength(10)
    expect(quiz.questions[499].options[9].is_correct).toBe(true)
    expect(await t.db.selectFrom('question_options').select('id').execute()).toHaveLength(5000)
  })

  it('takes a paste of 100 questions with SVG images', async () => {
    const questions = Array.from({ length: 100 }, (_, i) =>
      questionBody({
        text: { en: `Picture ${i + 1}` },
        image: { svg: i % 2 ? TRIANGLE_SVG : DEVANAGARI_SVG, caption: { en: `Figure ${i + 1}` } },
      }),
    )
    const response = await create({ title: { en: 'Pictures', ne: 'चित्रहरू' }, questions })
    expect(response.statusCode).toBe(201)
    const quiz = await detail(response.json().quiz_id)
    expect(quiz.questions).toHaveLength(100)
    expect(quiz.questions[99]).toMatchObject({
      text: { en: 'Picture 100' },
      image: { svg: TRIANGLE_SVG, caption: { en: 'Figure 100', ne: '' } },
    })
  })

  it('names every bad field by its dotted path and creates nothing', async () => {
    const response = await create({
      title: { en: '', ne: 'शीर्षक' },
      start_time: '2026-12-01T09:00:00',
      duration_minutes: 0,
      allowed_attempts: 1001,
      difficulty: 'expert',
      is_paid_tier: 'no',
      questions: [
        questionBody(),
        questionBody({ text: { ne: 'अंग्रेजी छैन' } }),
        questionBody({
          options: [
            { text: { en: 'a' }, is_correct: true },
            { text: { en: '' }, is_correct: false },
          ],
        }),
        questionBody({
          options: [
            { text: { en: 'a' }, is_correct: false },
            { text: { en: 'b' }, is_correct: false },
          ],
        }),
        questionBody({ image: { svg: 'not an image' } }),
        questionBody({
          options: [{ ...twoOptions[0], image: { svg: '<svg><script>x</script></svg>' } }, twoOptions[1]],
        }),
        questionBody({ hint: { en: '', ne: 'संकेत' }, topic: 42 }),
      ],
    })

    expect(response.statusCode).toBe(400)
    const body = response.json()
    expect(body.code).toBe('validation_error')
    expect(body.detail).toEqual(expect.any(String))
    expect(body.errors).toEqual({
      'title.en': [adminMessages.blank],
      start_time: [adminMessages.timestamp],
      duration_minutes: [adminMessages.duration],
      allowed_attempts: [adminMessages.attempts],
      difficulty: [expect.any(String)],
      is_paid_tier: [expect.any(String)],
      'questions.1.text.en': [adminMessages.required],
      'questions.2.options.1.text.en': [adminMessages.blank],
      'questions.3.options': [adminMessages.exactlyOneCorrect],
      'questions.4.image.svg': [svgRejections.notSvg],
      'questions.5.options.0.image.svg': [svgRejections.emptyAfterSanitising],
      'questions.6.hint.en': [adminMessages.blank],
      'questions.6.topic': [expect.any(String)],
    })
    await expectNothingCreated()
  })

  it.each([
    ['no title', { title: undefined }, 'title', adminMessages.required],
    ['a title of 301 characters', { title: { en: 'x'.repeat(301) } }, 'title.en', adminMessages.tooLong(300)],
    ['no questions key', { questions: undefined }, 'questions', adminMessages.required],
    ['an empty question list', { questions: [] }, 'questions', adminMessages.questionCount],
    [
      '501 questions',
      { questions: Array.from({ length: 501 }, () => ({ text: { en: 'Q' }, options: twoOptions })) },
      'questions',
      adminMessages.questionCount,
    ],
    ['questions that are not a list', { questions: { 0: questionBody() } }, 'questions', undefined],
    [
      'an end before the start',
      { start_time: '2026-12-02T00:00:00Z', end_time: '2026-12-01T23:59:59Z' },
      'end_time',
      adminMessages.endAfterStart,
    ],
    [
      'an end in the past with the start left to now',
      { end_time: '2026-11-22T06:59:59Z' },
      'end_time',
      adminMessages.endAfterStart,
    ],
    ['an end without an offset', { end_time: '2026-12-01 10:00' }, 'end_time', adminMessages.timestamp],
    ['a fractional number of attempts', { allowed_attempts: 2.5 }, 'allowed_attempts', adminMessages.attempts],
    [
      'an SVG over 200 KB',
      { questions: [questionBody({ image: { svg: svgOfSize(205 * 1024) } })] },
      'questions.0.image.svg',
      adminMessages.svgTooLarge,
    ],
    [
      'a question with eleven options',
      {
        questions: [
          questionBody({
            options: Array.from({ length: 11 }, (_, i) => ({ text: { en: `${i}` }, is_correct: i === 0 })),
          }),
        ],
      },
      'questions.0.options',
      adminMessages.optionCount,
    ],
  ])('refuses %s with 400 at its path and creates nothing', async (_name, overrides, field, message) => {
    const response = await create({ title: { en: 'Quiz' }, questions: [questionBody()], ...overrides })
    expect(response.statusCode).toBe(400)
    expect(response.json().errors[field]).toEqual(message ? [message] : [expect.any(String)])
    await expectNothingCreated()
  })

  it('ignores unknown fields', async () => {
    const response = await create({
      id: 5,
      title: { en: 'Extra', fr: 'x' },
      questions: [questionBody({ number: 9 })],
      owner: 'me',
    })
    expect(response.statusCode).toBe(201)
    expect(response.json().quiz_id).not.toBe(5)
  })

  it('accepts a paste over 1 MB (the limit here is 10 MB)', async () => {
    const questions = Array.from({ length: 250 }, (_, i) => ({
      text: { en: `${i} ${'x'.repeat(4_900)}` },
      options: twoOptions,
    }))
    const payload = { title: { en: 'Long' }, questions }
    expect(JSON.stringify(payload).length).toBeGreaterThan(MB)
    const response = await create(payload)
    expect(response.statusCode).toBe(201)
  })

  it('answers 413 to a body over 10 MB and creates nothing', async () => {
    const response = await create({ title: { en: 'Huge' }, questions: [questionBody()], notes: 'x'.repeat(10 * MB) })
    expect(response.statusCode).toBe(413)
    expect(response.json().code).toBe('payload_too_large')
    await expectNothingCreated()
  })

  it('answers 400 to malformed JSON and creates nothing', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { ...(await asAdmin()), 'content-type': 'application/json' },
      payload: '{"title": {"en": "Broken"}, "questions": [',
    })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ detail: 'Malformed request body.', code: 'validation_error' })
    await expectNothingCreated()
  })

  it('answers 400 to JSON that is not an object', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { ...(await asAdmin()), 'content-type': 'application/json' },
      payload: '"a quiz"',
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().errors).toEqual({ non_field_errors: [expect.any(String)] })
  })

  it('answers 415 to a body that is not JSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { ...(await asAdmin()), 'content-type': 'text/plain' },
      payload: 'title: Quiz',
    })
    expect(response.statusCode).toBe(415)
    await expectNothingCreated()
  })

  it('is served without the trailing slash too', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/quizzes/create-from-json',
      headers: await asAdmin(),
      payload: { title: { en: 'Slash' }, questions: [questionBody()] },
    })
    expect(response.statusCode).toBe(201)
  })

  it('shows the new quiz to learners in GET /api/quizzes/', async () => {
    const created = await create({
      title: { en: 'Now open', ne: 'अहिले खुला' },
      questions: [questionBody(), questionBody()],
    })
    const learner = bearerFor(t.tokens, await createUser(t.database))
    const response = await t.app.inject({ method: 'GET', url: '/api/quizzes/', headers: await learner })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual([
      expect.objectContaining({
        id: created.json().quiz_id,
        title: { en: 'Now open', ne: 'अहिले खुला' },
        question_count: 2,
      }),
    ])
  })
})
