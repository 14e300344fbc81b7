import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { typedPaper } from '../../test/fixtures/question-types.fixtures'

// API.md "Question types": any answer short of full marks enters the practice deck, and practice takes a multiple
// question's option ids and a numeric question's typed number, marked by the exam's markers.

describe.each(dialects)('practice of multiple and numeric questions on %s', (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsAs(t)

  async function deckAfter(answers: (paper: Awaited<ReturnType<typeof typedPaper>>) => Record<number, unknown>) {
    const paper = await typedPaper(t, as)
    const learner = await createUser(t.database)
    const submitted = await as(learner, 'POST', `/api/quizzes/${paper.quizId}/submit/`, { answers: answers(paper) })
    expect(submitted.status, submitted.raw).toBe(200)
    const deck = await as(learner, 'GET', '/api/practice/')
    expect(deck.status).toBe(200)
    return { ...paper, learner, deck: deck.body }
  }
  const cardIds = (deck: { cards: { question: { id: number } }[] }) => deck.cards.map((card) => card.question.id)

  it('puts a partial multiple answer and a wrong number in the deck, and leaves full marks out', async () => {
    const partial = await deckAfter((p) => ({
      [p.multipleId]: [p.optionId('2')],
      [p.numericId]: '3',
      [p.choiceId]: p.right,
    }))
    expect(cardIds(partial.deck).sort()).toEqual([partial.multipleId, partial.numericId].sort())
    const multiple = partial.deck.cards.find(
      (card: { question: { id: number } }) => card.question.id === partial.multipleId,
    )
    expect(multiple.question.type).toBe('multiple')
    expect(multiple.question).not.toHaveProperty('decimals')
    const numeric = partial.deck.cards.find(
      (card: { question: { id: number } }) => card.question.id === partial.numericId,
    )
    expect(numeric.question).toMatchObject({ type: 'numeric', options: [], decimals: 2 })
    expect(JSON.stringify(partial.deck)).not.toContain('is_correct')
    expect(JSON.stringify(partial.deck)).not.toContain('3.14')

    const full = await deckAfter((p) => ({
      [p.multipleId]: [p.optionId('5'), p.optionId('2')],
      [p.numericId]: '3.15',
      [p.choiceId]: p.right,
    }))
    expect(full.deck).toMatchObject({ due: 0, total: 0 })
  })

  it('marks practice answers by type: the whole right set and a number within tolerance are right', async () => {
    const p = await deckAfter(() => ({}))
    const practise = (questionId: number, body: object) => as(p.learner, 'POST', `/api/practice/${questionId}/`, body)

    // Part of the right set is not right in practice: back to box 1, with the right set.
    const part = await practise(p.multipleId, { answers: { [p.multipleId]: [p.optionId('2')] } })
    expect(part.status, part.raw).toBe(200)
    expect(part.body).toMatchObject({ correct: false, box: 1 })
    expect(part.body.correct_option_ids.sort()).toEqual([p.optionId('2'), p.optionId('5')].sort())
    expect(part.body).not.toHaveProperty('answer')
    const whole = await practise(p.multipleId, { answers: { [p.multipleId]: [p.optionId('5'), p.optionId('2')] } })
    expect(whole.body).toMatchObject({ correct: true, box: 2 })

    const wrongNumber = await practise(p.numericId, { answers: { [p.numericId]: '3.2' } })
    expect(wrongNumber.body).toMatchObject({
      correct: false,
      box: 1,
      correct_option_id: null,
      answer: { value: 3.14, tolerance: 0.01 },
    })
    const rightNumber = await practise(p.numericId, { answers: { [p.numericId]: '३.१३' } })
    expect(rightNumber.body).toMatchObject({ correct: true, box: 2 })

    // A choice card takes its option id in either form.
    const choice = await practise(p.choiceId, { answers: { [p.choiceId]: p.right } })
    expect(choice.body).toMatchObject({ correct: true, correct_option_id: p.right, box: 2 })
    expect(choice.body).not.toHaveProperty('correct_option_ids')
  })

  it('refuses a practice answer that does not fit its question, invalid_number for a number the rule refuses', async () => {
    const p = await deckAfter(() => ({}))
    const practise = (questionId: number, body: object) => as(p.learner, 'POST', `/api/practice/${questionId}/`, body)
    const refused = async (questionId: number, body: object, code = 'validation_error') => {
      const response = await practise(questionId, body)
      expect(response.status, response.raw).toBe(400)
      expect(response.body.code).toBe(code)
      return response.body.errors
    }
    for (const typed of ['3.145', '', 'pi', '1e3'])
      expect(Object.keys(await refused(p.numericId, { answers: { [p.numericId]: typed } }, 'invalid_number'))).toEqual([
        `answers.${p.numericId}`,
      ])
    expect(Object.keys(await refused(p.numericId, { answers: { [p.numericId]: 3.14 } }))).toEqual([
      `answers.${p.numericId}`,
    ])
    expect(await refused(p.numericId, { answers: { [p.numericId]: 3 } })).toEqual({
      [`answers.${p.numericId}`]: ['This question takes a typed number, as a string.'],
    })
    expect(await refused(p.multipleId, { answers: { [p.multipleId]: [p.optionId('2'), p.right] } })).toEqual({
      [`answers.${p.multipleId}`]: ['This option does not belong to this question.'],
    })
    expect(await refused(p.multipleId, { option_id: p.optionId('2') })).toEqual({
      option_id: ['This question takes a list of option ids.'],
    })
    expect(await refused(p.multipleId, { answers: { [p.multipleId]: [] } })).toEqual({
      [`answers.${p.multipleId}`]: ['Choose an answer.'],
    })
    expect(await refused(p.multipleId, { answers: { [p.numericId]: '3.14' } })).toEqual({
      [`answers.${p.numericId}`]: ['Answer the card being practised only.'],
    })
    expect(await refused(p.choiceId, {})).toHaveProperty('option_id')
    // Nothing moved: every card is still due in box 1.
    const deck = (await as(p.learner, 'GET', '/api/practice/')).body
    expect(deck).toMatchObject({ due: 3, total: 3 })
    expect(deck.cards.every((card: { box: number }) => card.box === 1)).toBe(true)
  })
})
