import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { questionBody } from '../../test/fixtures/admin.fixtures'
import { multipleBody, numericBody } from '../../test/fixtures/question-types.fixtures'

// API.md "Question types": multiple and numeric questions through the bank, create-from-JSON, the admin quiz and its
// sections, and the learner's paper.

const option = (en: string, is_correct = false) => ({ text: { en, ne: '' }, is_correct })

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

describe.each(dialects)('answers to multiple and numeric questions on %s', (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsAs(t)

  /** A JEE-like paper: a multiple question marked partially (4, -2, 1 a right option), a numeric one (3, no loss), a choice one. */
  async function paper() {
    const admin = await createUser(t.database, { is_admin: 1 })
    const created = await as(admin, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'JEE Advanced mock' },
      sections: [
        {
          marks_correct: 4,
          marks_wrong: 2,
          multiple: { scheme: 'partial', partial_marks: 1 },
          items: [multipleBody()],
        },
        { marks_correct: 3, marks_wrong: 1, numeric_negative: false, items: [numericBody()] },
        { marks_correct: 1, marks_wrong: 0.25, items: [questionBody({ image: null })] },
      ],
    })
    const quizId: number = created.body.quiz_id
    const quiz = (await as(admin, 'GET', `/api/admin/quizzes/${quizId}/`)).body
    const [multiple, numeric, choice] = quiz.questions as {
      id: number
      options: { id: number; text: { en: string }; is_correct: boolean }[]
    }[]
    const optionId = (en: string) => multiple!.options.find((o) => o.text.en === en)!.id
    const right = choice!.options.find((o) => o.is_correct)!.id
    const wrong = choice!.options.find((o) => !o.is_correct)!.id
    return { quizId, multipleId: multiple!.id, numericId: numeric!.id, choiceId: choice!.id, optionId, right, wrong }
  }

  it('autosaves lists of option ids and typed numbers, gives them back in their forms, clears them and scores them', async () => {
    const { quizId, multipleId, numericId, choiceId, optionId, right } = await paper()
    const learner = await createUser(t.database)
    const started = await as(learner, 'GET', `/api/quizzes/${quizId}/`)
    expect(started.status).toBe(200)
    const save = (answers: Record<number, unknown>) =>
      as(learner, 'PUT', `/api/quizzes/${quizId}/answers/`, { answers })

    const saved = await save({ [multipleId]: [optionId('5'), optionId('2'), optionId('5')], [numericId]: ' +३.१४ ' })
    expect(saved.status, saved.raw).toBe(200)
    expect(saved.body).toEqual({ saved: 2 })
    const resumed = async () => (await as(learner, 'GET', `/api/quizzes/${quizId}/`)).body.attempt.answers
    // Sorted, once each; the number in its shortest form.
    expect(await resumed()).toEqual({
      [multipleId]: [optionId('2'), optionId('5')].sort((a, b) => a - b),
      [numericId]: '3.14',
    })

    // null and [] clear; a choice answer beside them is stored as ever.
    expect((await save({ [multipleId]: [], [numericId]: null, [choiceId]: right })).status).toBe(200)
    expect(await resumed()).toEqual({ [choiceId]: right })

    expect((await save({ [multipleId]: [optionId('2')], [numericId]: '3.13' })).status).toBe(200)
    const submitted = await as(learner, 'POST', `/api/quizzes/${quizId}/submit/`, { answers: {} })
    expect(submitted.status, submitted.raw).toBe(200)
    // One right option of two: +1 (partial, counted in incorrect); 3.13 lies within 3.14 ± 0.01: +3; choice right: +1.
    expect(submitted.body).toMatchObject({ score: 5, correct: 2, incorrect: 1, unanswered: 0, max_score: 8 })
    expect(submitted.body.sections.map((s: { score: number }) => s.score)).toEqual([1, 3, 1])
  })

  it('scores the answers a submit brings, wrong ones by the section: -2 a wrong option, nothing for a wrong number', async () => {
    const { quizId, multipleId, numericId, choiceId, optionId, wrong } = await paper()
    const learner = await createUser(t.database)
    const submitted = await as(learner, 'POST', `/api/quizzes/${quizId}/submit/`, {
      answers: { [multipleId]: [optionId('2'), optionId('4')], [numericId]: '7', [choiceId]: wrong },
    })
    expect(submitted.status, submitted.raw).toBe(200)
    expect(submitted.body).toMatchObject({ score: -2.25, correct: 0, incorrect: 3, unanswered: 0 })

    const again = await createUser(t.database)
    const all = await as(again, 'POST', `/api/quizzes/${quizId}/submit/`, {
      answers: { [multipleId]: [optionId('2'), optionId('5')], [numericId]: '३.१५' },
    })
    expect(all.body).toMatchObject({ score: 7, correct: 2, incorrect: 0, unanswered: 1 })
  })

  it('refuses an answer that does not fit its question: invalid_number for a number the rule refuses', async () => {
    const { quizId, multipleId, numericId, choiceId, optionId, right } = await paper()
    const learner = await createUser(t.database)
    await as(learner, 'GET', `/api/quizzes/${quizId}/`)
    const save = (answers: Record<number, unknown>) =>
      as(learner, 'PUT', `/api/quizzes/${quizId}/answers/`, { answers })
    for (const typed of ['3.145', '', '3.1.4', 'pi', '1e3', '--3']) {
      const refused = await save({ [numericId]: typed })
      expect(refused.status).toBe(400)
      expect(refused.body.code).toBe('invalid_number')
      expect(Object.keys(refused.body.errors)).toEqual([`answers.${numericId}`])
    }
    expect((await save({ [numericId]: '3.145' })).body.errors[`answers.${numericId}`]).toEqual([
      'Too many digits after the decimal point.',
    ])
    const errorOf = async (answers: Record<number, unknown>) => {
      const refused = await save(answers)
      expect(refused.status).toBe(400)
      expect(refused.body.code).toBe('validation_error')
      return refused.body.errors
    }
    expect(Object.keys(await errorOf({ [numericId]: 3.14 }))).toEqual([`answers.${numericId}`])
    expect(await errorOf({ [numericId]: 3 })).toEqual({
      [`answers.${numericId}`]: ['This question takes a typed number, as a string.'],
    })
    expect(await errorOf({ [multipleId]: [optionId('2'), right] })).toEqual({
      [`answers.${multipleId}`]: ['This option does not belong to this question.'],
    })
    expect(await errorOf({ [multipleId]: optionId('2') })).toEqual({
      [`answers.${multipleId}`]: ['This question takes a list of option ids.'],
    })
    expect(await errorOf({ [choiceId]: [right] })).toEqual({
      [`answers.${choiceId}`]: ['This question takes one option id.'],
    })
    expect(await errorOf({ [choiceId]: String(right) })).toEqual({
      [`answers.${choiceId}`]: ['This question takes one option id.'],
    })
    // The submit refuses as the autosave does, and nothing is stored.
    const submit = await as(learner, 'POST', `/api/quizzes/${quizId}/submit/`, { answers: { [numericId]: 'x' } })
    expect(submit.status).toBe(400)
    expect(submit.body.code).toBe('invalid_number')
    expect((await as(learner, 'GET', `/api/quizzes/${quizId}/`)).body.attempt.answers).toEqual({})
  })
})
