import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { questionBody } from '../../test/fixtures/admin.fixtures'

// API.md "Question types": multiple and numeric questions through the bank, create-from-JSON, the admin quiz and its
// sections, and the learner's paper.

const option = (en: string, is_correct = false) => ({ text: { en, ne: '' }, is_correct })

export const multipleBody = (overrides: Record<string, unknown> = {}) => ({
  type: 'multiple',
  text: { en: 'Which of these are prime?', ne: '' },
  topic: 'Numbers',
  options: [option('2', true), option('4'), option('5', true), option('9')],
  ...overrides,
})

export const numericBody = (overrides: Record<string, unknown> = {}) => ({
  type: 'numeric',
  text: { en: 'Give pi to two decimals.', ne: '' },
  topic: 'Numbers',
  answer: { value: 3.14, tolerance: 0.01 },
  decimals: 2,
  ...overrides,
})

describe.each(dialects)('multiple and numeric questions on %s', (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsAs(t)

  it('stores, returns, updates and lists multiple and numeric bank questions', async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    const multiple = await as(admin, 'POST', '/api/admin/bank/questions/', multipleBody({ tags: ['primes'] }))
    expect(multiple.status).toBe(201)
    expect(multiple.body).toMatchObject({ type: 'multiple', answer: null, decimals: null, marks: null })
    expect(
      multiple.body.options.map((o: { text: { en: string }; is_correct: boolean }) => [o.text.en, o.is_correct]).sort(),
    ).toEqual([
      ['2', true],
      ['4', false],
      ['5', true],
      ['9', false],
    ])

    const numeric = await as(admin, 'POST', '/api/admin/bank/questions/', numericBody())
    expect(numeric.status).toBe(201)
    expect(numeric.body).toMatchObject({
      type: 'numeric',
      options: [],
      answer: { value: 3.14, tolerance: 0.01 },
      decimals: 2,
    })
    const read = await as(admin, 'GET', `/api/admin/bank/questions/${numeric.body.id}/`)
    expect(read.body).toMatchObject({ type: 'numeric', answer: { value: 3.14, tolerance: 0.01 }, decimals: 2 })

    // An exact value needs no tolerance; a range; decimals null for any.
    const exact = await as(admin, 'POST', '/api/admin/bank/questions/', numericBody({ answer: { value: -11 } }))
    expect(exact.body).toMatchObject({ answer: { value: -11, tolerance: 0 }, decimals: 2 })
    const ranged = await as(
      admin,
      'PUT',
      `/api/admin/bank/questions/${numeric.body.id}/`,
      numericBody({ answer: { min: 1, max: 5 }, decimals: null }),
    )
    expect(ranged.status).toBe(200)
    expect(ranged.body).toMatchObject({ type: 'numeric', answer: { min: 1, max: 5 }, decimals: null })
    expect(ranged.body.revision_id).not.toBe(numeric.body.revision_id)

    // A choice question becomes multiple by a new revision; choice questions stay as they were.
    const choice = await as(admin, 'POST', '/api/admin/bank/questions/', questionBody({ image: null }))
    expect(choice.body).toMatchObject({ type: 'choice', answer: null, decimals: null })
    const changed = await as(admin, 'PUT', `/api/admin/bank/questions/${choice.body.id}/`, multipleBody())
    expect(changed.body.type).toBe('multiple')

    const list = async (type: string) =>
      (await as(admin, 'GET', `/api/admin/bank/questions/?type=${type}`)).body.results.map((q: { id: number }) => q.id)
    expect((await list('numeric')).sort()).toEqual([numeric.body.id, exact.body.id].sort())
    expect((await list('multiple')).sort()).toEqual([multiple.body.id, choice.body.id].sort())
    expect(await list('choice')).toEqual([])
    const listed = (await as(admin, 'GET', '/api/admin/bank/questions/?type=numeric')).body.results[0]
    expect(listed).toMatchObject({ type: 'numeric', option_count: 0 })
  })

  it('refuses a multiple or numeric question that breaks the rules, at the field at fault', async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    const errorsOf = async (body: object) => {
      const response = await as(admin, 'POST', '/api/admin/bank/questions/', body)
      expect(response.status).toBe(400)
      return response.body.errors as Record<string, string[]>
    }
    expect(await errorsOf(multipleBody({ options: [option('2', true)] }))).toEqual({
      options: ['A multiple question needs 2 to 8 options.'],
    })
    const nine = Array.from({ length: 9 }, (_, i) => option(String(i), i === 0))
    expect(await errorsOf(multipleBody({ options: nine }))).toEqual({
      options: ['A multiple question needs 2 to 8 options.'],
    })
    expect(await errorsOf(multipleBody({ options: [option('2'), option('4')] }))).toEqual({
      options: ['At least one option must be marked correct.'],
    })
    expect(await errorsOf(numericBody({ options: [option('3', true), option('4')] }))).toEqual({
      options: ['A numeric question has no options.'],
    })
    expect(await errorsOf(numericBody({ decimals: 7 }))).toEqual({
      decimals: ['Decimals must be a whole number from 0 to 6, or null.'],
    })
    expect(await errorsOf(numericBody({ decimals: 1.5 }))).toHaveProperty('decimals')
    expect(await errorsOf(numericBody({ answer: { value: 3, tolerance: -0.5 } }))).toEqual({
      'answer.tolerance': ['The tolerance must be 0 or more.'],
    })
    expect(await errorsOf(numericBody({ answer: { min: 5, max: 1 } }))).toEqual({
      'answer.max': ["The range's min must not be above its max."],
    })
    expect(await errorsOf(numericBody({ answer: { value: 3.1415926 } }))).toEqual({
      'answer.value': ['A number with at most 6 decimals.'],
    })
    expect(await errorsOf(numericBody({ answer: { min: 1 } }))).toHaveProperty(['answer.max'])
    expect(await errorsOf(numericBody({ answer: undefined }))).toEqual({ answer: ['This field is required.'] })
    expect(await errorsOf(numericBody({ answer: 3.14 }))).toEqual({
      answer: ['Send {value, tolerance} or {min, max}.'],
    })
    expect(await errorsOf(questionBody({ type: 'essay', image: null }))).toEqual({
      type: ['A question is of type choice, multiple, numeric or written.'],
    })
    // A choice question still needs exactly one right option.
    expect(
      await errorsOf(questionBody({ image: null, options: [option('2', true), option('5', true)] })),
    ).toHaveProperty('options')
    expect((await as(admin, 'GET', '/api/admin/bank/questions/?type=essay')).status).toBe(400)
  })

  it('takes the new types and the sections marking them in create-from-JSON, and sends learners no key', async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    const created = await as(admin, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'JEE Advanced mock' },
      sections: [
        {
          title: { en: 'Several right' },
          marks_correct: 4,
          marks_wrong: 2,
          multiple: { scheme: 'partial', partial_marks: 1 },
          items: [multipleBody()],
        },
        { title: { en: 'Numbers' }, marks_correct: 3, marks_wrong: 1, numeric_negative: false, items: [numericBody()] },
        { title: { en: 'One right' }, items: [questionBody({ image: null })] },
      ],
    })
    expect(created.status).toBe(201)
    const quiz = await as(admin, 'GET', `/api/admin/quizzes/${created.body.quiz_id}/`)
    expect(quiz.body.sections.map((s: object) => ({ ...s, id: 0, items: [] }))).toEqual([
      {
        id: 0,
        title: { en: 'Several right', ne: '' },
        marks_correct: 4,
        marks_wrong: 2,
        time_limit_minutes: null,
        multiple: { scheme: 'partial', partial_marks: 1 },
        numeric_negative: true,
        items: [],
      },
      {
        id: 0,
        title: { en: 'Numbers', ne: '' },
        marks_correct: 3,
        marks_wrong: 1,
        time_limit_minutes: null,
        multiple: { scheme: 'all_or_nothing', partial_marks: 1 },
        numeric_negative: false,
        items: [],
      },
      {
        id: 0,
        title: { en: 'One right', ne: '' },
        marks_correct: 1,
        marks_wrong: 0.2,
        time_limit_minutes: null,
        multiple: { scheme: 'all_or_nothing', partial_marks: 1 },
        numeric_negative: true,
        items: [],
      },
    ])
    expect(quiz.body.questions.map((q: { type: string }) => q.type)).toEqual(['multiple', 'numeric', 'choice'])
    expect(quiz.body.questions[1]).toMatchObject({ answer: { value: 3.14, tolerance: 0.01 }, decimals: 2 })

    const learner = await createUser(t.database)
    const started = await as(learner, 'GET', `/api/quizzes/${created.body.quiz_id}/`)
    expect(started.status).toBe(200)
    const quizId: number = created.body.quiz_id
    const question = async (n: number) => (await as(learner, 'GET', `/api/quizzes/${quizId}/question/${n}/`)).body
    const [multiple, numeric, choice] = [await question(1), await question(2), await question(3)]
    expect(multiple.type).toBe('multiple')
    expect(multiple.options).toHaveLength(4)
    expect(multiple).not.toHaveProperty('decimals')
    for (const each of multiple.options) expect(Object.keys(each).sort()).toEqual(['id', 'image', 'text'])
    expect(JSON.stringify([multiple, numeric])).not.toContain('is_correct')
    expect(numeric).toMatchObject({ type: 'numeric', options: [], decimals: 2 })
    expect(numeric).not.toHaveProperty('answer')
    expect(JSON.stringify(numeric)).not.toContain('3.14')
    expect(choice.type).toBe('choice')
    expect(choice).not.toHaveProperty('decimals')
  })

  it('refuses partial marks above the section marks and a scheme it does not know, at their paths', async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    const created = await as(admin, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Bad marking' },
      sections: [
        { marks_correct: 2, multiple: { scheme: 'partial', partial_marks: 3 }, items: [multipleBody()] },
        { multiple: { scheme: 'most' }, numeric_negative: 'no', items: [numericBody()] },
      ],
    })
    expect(created.status).toBe(400)
    expect(Object.keys(created.body.errors).sort()).toEqual([
      'sections.0.multiple.partial_marks',
      'sections.1.multiple.scheme',
      'sections.1.numeric_negative',
    ])
    // A section worth less than 1 takes its own marks as the default partial marks, not a refusal.
    const small = await as(admin, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Half marks' },
      sections: [{ marks_correct: 0.5, multiple: { scheme: 'partial' }, items: [multipleBody()] }],
    })
    expect(small.status).toBe(201)
    const quiz = await as(admin, 'GET', `/api/admin/quizzes/${small.body.quiz_id}/`)
    expect(quiz.body.sections[0].multiple).toEqual({ scheme: 'partial', partial_marks: 0.5 })
  })
})
