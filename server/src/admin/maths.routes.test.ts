import { describe, expect, it } from 'vitest'
import type { UserRow } from '../db/schema'
import { unmatchedDollar } from '@quiz/contracts/rules/tex-segments'
import { definesAMacro, texLimits, tooDeep, tooLarge, tooManyExpansions } from '@quiz/contracts/rules/tex-limits'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { TRIANGLE_SVG } from '../../test/fixtures/admin.fixtures'

// API.md "Maths and chemistry": TeX is checked where it is written, rendered once, and reaches learners only as a
// plain reading and MathML (its source only in the MathML annotation); admins read their TeX back.

const FRACTION = '$\\frac{1}{2}$'
const EQUATION = '$\\ce{2H2 + O2 -> 2H2O}$'

/** A question with maths in every text it has, in both languages. */
const mathsQuestion = (n: number) => ({
  text: { en: `Q${n}: what is ${FRACTION} of $x^2$?`, ne: `प्रश्न ${n}: $\\text{आधा} = ${FRACTION.slice(1)}` },
  hint: { en: `Balance ${EQUATION}`, ne: `$\\pu{123 kJ/mol}$ हेर्नुहोस्` },
  topic: 'physics',
  image: { svg: TRIANGLE_SVG, caption: { en: 'Area $\\pi r^2$', ne: '' } },
  options: [
    {
      text: { en: '$\\sqrt{2}$', ne: '$\\sqrt{2}$' },
      is_correct: true,
      image: { svg: TRIANGLE_SVG, caption: { en: '$a_1$' } },
    },
    { text: { en: EQUATION, ne: '' }, is_correct: false },
    { text: { en: 'Costs \\$5', ne: '' }, is_correct: false },
  ],
})

/** Every string of a payload with its path, `inHtml` when under an `html` key. */
function* stringsOf(
  value: unknown,
  path = '',
  inHtml = false,
): Generator<{ path: string; text: string; inHtml: boolean }> {
  if (typeof value === 'string') yield { path, text: value, inHtml }
  else if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* stringsOf(item, `${path}.${i}`, inHtml)
  else if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) yield* stringsOf(item, `${path}.${key}`, inHtml || key === 'html')
}

const TEX = /\$|\\[a-zA-Z]+/

/** The TeX a learner might see: anywhere outside html, and inside html anywhere but the MathML annotations. */
function texLeaks(payload: unknown) {
  const leaks: string[] = []
  for (const { path, text, inHtml } of stringsOf(payload)) {
    // A dollar written as \$ is a dollar sign, not a delimiter: it may be shown.
    const shown = (
      inHtml ? text.replace(/<annotation encoding="application\/x-tex">[^<]*<\/annotation>/g, '') : text
    ).replace(/Costs \$5/g, '')
    if (TEX.test(shown)) leaks.push(`${path}: ${text.slice(0, 120)}`)
  }
  return leaks
}

describe.each(dialects)('maths in questions on %s', (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)
  const asAdmin = async () => bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))

  async function createQuiz(questions: unknown[]) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/quizzes/create-from-json/',
      headers: await asAdmin(),
      payload: { title: { en: 'Physics mock' }, questions },
    })
    return response
  }

  async function expectNothingStored() {
    for (const table of ['quizzes', 'questions', 'question_revisions', 'question_options'] as const)
      expect(await t.db.selectFrom(table).select('id').execute()).toEqual([])
  }

  it('answers 400 at the field path naming the formula and the problem, and stores nothing (create-from-JSON)', async () => {
    const bad = mathsQuestion(1)
    bad.hint.en = 'Half: $\\frac{1}$'
    bad.options[1]!.text.ne = 'मूल्य $5'
    const response = await createQuiz([mathsQuestion(0), bad])
    expect(response.statusCode).toBe(400)
    expect(response.json().errors).toEqual({
      'questions.1.hint.en': [
        "The formula $\\frac{1}$ does not parse: Unexpected end of input in a macro argument, expected '}'",
      ],
      'questions.1.options.1.text.ne': [unmatchedDollar],
    })
    await expectNothingStored()
  })

  it('reports maths refusals with the other problems of the body', async () => {
    const response = await createQuiz([{ ...mathsQuestion(1), text: { en: '$\\badcommand$' }, options: [] }])
    expect(response.statusCode).toBe(400)
    expect(Object.keys(response.json().errors).sort()).toEqual(['questions.0.options', 'questions.0.text.en'])
    expect(response.json().errors['questions.0.text.en'][0]).toMatch(/^The formula \$\\badcommand\$ does not parse: /)
    await expectNothingStored()
  })

  it('answers 400 at options.N.text.ne and image.caption on the question routes, and keeps the question as it was', async () => {
    const created = await createQuiz([mathsQuestion(1)])
    const quizId = created.json().quiz_id as number
    const admin = await asAdmin()
    const before = (await t.app.inject({ method: 'GET', url: `/api/admin/quizzes/${quizId}/`, headers: admin })).json()
    const questionId = before.questions[0].id as number
    const bad = mathsQuestion(2)
    bad.options[2]!.text.ne = '$x^$'
    bad.image.caption.ne = 'एक $ मात्र'
    for (const [method, url] of [
      ['POST', `/api/admin/quizzes/${quizId}/questions/`],
      ['PUT', `/api/admin/quizzes/${quizId}/questions/${questionId}/`],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: admin, payload: bad })
      expect(response.statusCode).toBe(400)
      expect(response.json().errors).toEqual({
        'options.2.text.ne': [expect.stringMatching(/^The formula \$x\^\$ does not parse: /)],
        'image.caption.ne': [unmatchedDollar],
      })
    }
    const after = (await t.app.inject({ method: 'GET', url: `/api/admin/quizzes/${quizId}/`, headers: admin })).json()
    expect(after).toEqual(before)
    expect(await t.db.selectFrom('question_revisions').select('id').execute()).toHaveLength(1)
  })

  // Issue 41 L1: TeX nested 2,000 deep (4,003 characters, under the length limit) overflowed KaTeX's stack: a 500.
  const DEEP = `$${'{'.repeat(2_000)}x${'}'.repeat(2_000)}$`
  const LARGE = '$\\frac{1}{2}$ '.repeat(300).trim()
  const EXPANDING = `$\\ce{${'A -> B '.repeat(texLimits.maxExpand + 1)}}$`

  it('answers 400 naming a formula nested too deep, too large or expanding too much (create-from-JSON)', async () => {
    const bad = mathsQuestion(1)
    bad.text.en = DEEP
    bad.hint.ne = LARGE
    bad.options[0]!.text.en = EXPANDING
    const response = await createQuiz([mathsQuestion(0), bad])
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ code: 'validation_error' })
    expect(response.json().errors).toEqual({
      'questions.1.text.en': [`The formula ${DEEP} ${tooDeep}`],
      'questions.1.hint.ne': [`The formula $\\frac{1}{2}$ ${tooLarge}`],
      'questions.1.options.0.text.en': [`The formula ${EXPANDING} ${tooManyExpansions}`],
    })
    await expectNothingStored()
  })

  it('answers 400 naming a formula nested too deep on the question and bank routes, keeping the question', async () => {
    const created = await createQuiz([mathsQuestion(1)])
    const quizId = created.json().quiz_id as number
    const admin = await asAdmin()
    const before = (await t.app.inject({ method: 'GET', url: `/api/admin/quizzes/${quizId}/`, headers: admin })).json()
    const questionId = before.questions[0].id as number
    const bad = mathsQuestion(2)
    bad.text.ne = DEEP
    bad.image.caption.en = `$\\def\\a{${'{'.repeat(40)}\\a${'}'.repeat(40)}}\\a$`
    for (const [method, url] of [
      ['POST', `/api/admin/quizzes/${quizId}/questions/`],
      ['PUT', `/api/admin/quizzes/${quizId}/questions/${questionId}/`],
      ['POST', '/api/admin/bank/questions/'],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: admin, payload: bad })
      expect(response.statusCode, `${method} ${url}`).toBe(400)
      expect(response.json().errors).toEqual({
        'text.ne': [`The formula ${DEEP} ${tooDeep}`],
        'image.caption.en': [`The formula ${bad.image.caption.en} ${definesAMacro}`],
      })
    }
    const after = (await t.app.inject({ method: 'GET', url: `/api/admin/quizzes/${quizId}/`, headers: admin })).json()
    expect(after).toEqual(before)
    expect(await t.db.selectFrom('question_revisions').select('id').execute()).toHaveLength(1)
  })

  it('shows admins the TeX they wrote beside its rendering, and renders an edit', async () => {
    const created = await createQuiz([mathsQuestion(1)])
    const quizId = created.json().quiz_id as number
    const admin = await asAdmin()
    const quiz = (await t.app.inject({ method: 'GET', url: `/api/admin/quizzes/${quizId}/`, headers: admin })).json()
    const question = quiz.questions[0]
    expect(question.text).toEqual({
      en: `Q1: what is ${FRACTION} of $x^2$?`,
      ne: `प्रश्न 1: $\\text{आधा} = ${FRACTION.slice(1)}`,
      html: {
        en: expect.stringContaining('<mfrac><mn>1</mn><mn>2</mn></mfrac>'),
        ne: expect.stringContaining('<mtext>आधा</mtext>'),
      },
    })
    expect(question.image.caption).toEqual({ en: 'Area $\\pi r^2$', ne: '', html: { en: expect.any(String), ne: '' } })
    expect(question.options[2].text).toEqual({ en: 'Costs \\$5', ne: '', html: { en: 'Costs $5', ne: '' } })

    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/quizzes/${quizId}/questions/${question.id}/`,
      headers: admin,
      payload: { ...mathsQuestion(1), text: { en: 'Plain now' }, hint: null },
    })
    expect(edited.statusCode).toBe(200)
    expect(edited.json().text).toEqual({ en: 'Plain now', ne: '', html: null })
    expect(edited.json().options[0].text.html.en).toContain('<msqrt>')
  })

  it("shows the TeX with its rendering in the institution's item statistics", async () => {
    const created = await createQuiz([mathsQuestion(1)])
    const quizId = created.json().quiz_id as number
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/admin/quizzes/${quizId}/statistics/?which=all`,
      headers: await asAdmin(),
    })
    expect(response.statusCode).toBe(200)
    const [question] = response.json().questions
    expect(question.text).toMatchObject({
      en: `Q1: what is ${FRACTION} of $x^2$?`,
      html: { en: expect.stringContaining('<mfrac>') },
    })
    expect(question.options[1].text).toMatchObject({ en: EQUATION, html: { en: expect.stringContaining('<math') } })
  })

  it('stores the rendering when the text is written: payloads read it, never render', async () => {
    await createQuiz([mathsQuestion(1)])
    const revision = await t.db.selectFrom('question_revisions').select('maths').executeTakeFirstOrThrow()
    const stored = JSON.parse(revision.maths!)
    expect(Object.keys(stored).sort()).toEqual(['caption', 'hint', 'text'])
    expect(stored.hint.plain).toEqual({ en: 'Balance 2H₂ + O₂ → 2H₂O', ne: '123 kJ/mol हेर्नुहोस्' })
    const options = await t.db.selectFrom('question_options').select(['text_en', 'maths']).orderBy('position').execute()
    expect(options.map((option) => option.maths === null)).toEqual([false, false, false])
  })

  it('gives learners a plain reading and MathML, and no TeX outside the MathML annotation, in every payload', async () => {
    const created = await createQuiz([mathsQuestion(1), mathsQuestion(2)])
    const quizId = created.json().quiz_id as number
    const learner: UserRow = await createUser(t.database)
    const payloads: [string, unknown][] = []
    const get = async (url: string, method: 'GET' | 'POST' = 'GET', body?: unknown) => {
      const response = await call(learner, method, url, body)
      expect(response.status, url).toBe(200)
      payloads.push([url, response.body])
      return response.body
    }

    const attempt = await get(`/api/quizzes/${quizId}/`)
    const first = await get(`/api/quizzes/${quizId}/question/1/`)
    await get(`/api/quizzes/${quizId}/question/2/`)
    expect(first.text.en).toMatch(/^Q\d: what is 1\/2 of x²\?$/)
    expect(first.text.html.en).toContain('<math xmlns="http://www.w3.org/1998/Math/MathML">')
    expect(first.text.html.en).not.toContain('katex-html')
    const chemistry = first.options.find((option: { text: { en: string } }) => option.text.en.includes('→'))
    expect(chemistry.text).toEqual({ en: '2H₂ + O₂ → 2H₂O', ne: '', html: { en: expect.any(String), ne: '' } })
    expect(first.image.caption).toMatchObject({ en: 'Area πr²', ne: '' })

    // Every answer wrong: both questions enter the practice deck.
    const answers = Object.fromEntries(
      attempt.questions.map((question: { id: number }) => [question.id, null as number | null]),
    )
    const submitted = await get(`/api/quizzes/${quizId}/submit/`, 'POST', { answers })
    const report = await get(`/api/results/${submitted.attempt_id}/`)
    expect(report.questions[0].hint).toMatchObject({ en: expect.stringContaining('2H₂ + O₂ → 2H₂O') })
    await get('/api/results/')
    await get('/api/results/progress/')
    await get('/api/quizzes/')
    const deck = await get('/api/practice/')
    expect(deck.cards).toHaveLength(2)
    const card = deck.cards[0].question
    await get(`/api/practice/${card.id}/`, 'POST', { option_id: card.options[0].id })

    for (const [url, payload] of payloads) expect(texLeaks(payload), url).toEqual([])
    // The check itself finds TeX where it is.
    expect(texLeaks({ text: { en: '$x$', html: null } })).toHaveLength(1)
    expect(texLeaks({ html: { en: '<mi>x</mi>\\frac' } })).toHaveLength(1)
  })
})
