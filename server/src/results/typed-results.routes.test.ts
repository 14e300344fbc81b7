import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { typedPaper } from '../../test/fixtures/question-types.fixtures'

// API.md "Question types": the report card and progress of a paper with multiple and numeric questions.

describe.each(dialects)('results of multiple and numeric questions on %s', (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsAs(t)

  async function sat(answers: Record<number, unknown>) {
    const paper = await typedPaper(t, as)
    const learner = await createUser(t.database)
    const submitted = await as(learner, 'POST', `/api/quizzes/${paper.quizId}/submit/`, { answers: answers })
    expect(submitted.status, submitted.raw).toBe(200)
    const report = await as(learner, 'GET', `/api/results/${submitted.body.attempt_id}/`)
    expect(report.status, report.raw).toBe(200)
    return { ...paper, learner, submitted: submitted.body, report: report.body }
  }

  it('reports partial marks, the typed value, the right set and the accepted value, marks per answer', async () => {
    const paper = await typedPaper(t, as)
    const learner = await createUser(t.database)
    const { multipleId, numericId, choiceId, optionId, right } = paper
    const submitted = await as(learner, 'POST', `/api/quizzes/${paper.quizId}/submit/`, {
      answers: { [multipleId]: [optionId('2')], [numericId]: ' ३.१३', [choiceId]: right },
    })
    const report = (await as(learner, 'GET', `/api/results/${submitted.body.attempt_id}/`)).body
    // One right option of two: +1 (partial, counted in incorrect); 3.13 within 3.14 ± 0.01: +3; choice right: +1.
    expect(report).toMatchObject({ score: 5, correct: 2, incorrect: 1, unanswered: 0, partial: 1, max_score: 8 })
    expect(report.questions.map((q: { type: string }) => q.type)).toEqual(['multiple', 'numeric', 'choice'])
    const [multiple, numeric, choice] = report.questions
    expect(
      multiple.options
        .filter((o: { is_correct: boolean }) => o.is_correct)
        .map((o: { id: number }) => o.id)
        .sort(),
    ).toEqual([optionId('2'), optionId('5')].sort())
    expect(multiple).not.toHaveProperty('answer')
    expect(numeric).toMatchObject({ options: [], answer: { value: 3.14, tolerance: 0.01 } })
    expect(choice).not.toHaveProperty('answer')
    expect(report.answers).toEqual([
      expect.objectContaining({
        question: multipleId,
        selected_option: null,
        selected_option_ids: [optionId('2')],
        marks: 1,
      }),
      expect.objectContaining({ question: numericId, selected_option: null, value: '3.13', marks: 3 }),
      expect.objectContaining({ question: choiceId, selected_option: right, marks: 1 }),
    ])
    expect(report.answers[0]).not.toHaveProperty('value')
    expect(report.answers[1]).not.toHaveProperty('selected_option_ids')
    expect(report.answers[2]).not.toHaveProperty('value')
    expect(report.sections.map((s: { score: number; incorrect: number }) => [s.score, s.incorrect])).toEqual([
      [1, 1],
      [3, 0],
      [1, 0],
    ])
    expect(report.analysis).toMatchObject({
      negative_marks: 0,
      topics: [
        { topic: 'Numbers', correct: 1, incorrect: 1, unanswered: 0, score: 4 },
        { topic: 'geometry', correct: 1, incorrect: 0, unanswered: 0, score: 1 },
      ],
    })

    // Progress counts the partial answer as incorrect in its topic.
    const progress = (await as(learner, 'GET', '/api/results/progress/')).body
    expect(progress.attempts[0]).toMatchObject({ score: 5, correct: 2, incorrect: 1, unanswered: 0, max_score: 8 })
    expect(progress.topics).toEqual([
      { topic: 'Numbers', correct: 1, incorrect: 1, unanswered: 0 },
      { topic: 'geometry', correct: 1, incorrect: 0, unanswered: 0 },
    ])
  })

  it('reports wrong answers with their signed marks and negative marks, and unanswered ones as null', async () => {
    const wrong = await sat({})
    expect(wrong.report).toMatchObject({ score: 0, correct: 0, incorrect: 0, unanswered: 3, partial: 0 })
    expect(wrong.report.answers).toEqual([
      expect.objectContaining({ selected_option: null, selected_option_ids: null, marks: 0 }),
      expect.objectContaining({ selected_option: null, value: null, marks: 0 }),
      expect.objectContaining({ selected_option: null, marks: 0 }),
    ])

    const paper = await typedPaper(t, as)
    const learner = await createUser(t.database)
    const submitted = await as(learner, 'POST', `/api/quizzes/${paper.quizId}/submit/`, {
      answers: {
        [paper.multipleId]: [paper.optionId('2'), paper.optionId('4')],
        [paper.numericId]: '7',
        [paper.choiceId]: paper.wrong,
      },
    })
    const report = (await as(learner, 'GET', `/api/results/${submitted.body.attempt_id}/`)).body
    // A wrong option loses the section's 2; a wrong number loses nothing (numeric_negative false); choice -0.25.
    expect(report).toMatchObject({ score: -2.25, correct: 0, incorrect: 3, partial: 0 })
    expect(report.answers.map((a: { marks: number }) => a.marks)).toEqual([-2, 0, -0.25])
    expect(report.answers[1].value).toBe('7')
    expect(report.analysis.negative_marks).toBe(2.25)
    expect(report.analysis.topics).toEqual([
      { topic: 'Numbers', correct: 0, incorrect: 2, unanswered: 0, score: -2 },
      { topic: 'geometry', correct: 0, incorrect: 1, unanswered: 0, score: -0.25 },
    ])

    // The whole right set is full marks: correct, not partial.
    const full = await sat({})
    const again = await createUser(t.database)
    const whole = await as(again, 'POST', `/api/quizzes/${full.quizId}/submit/`, {
      answers: { [full.multipleId]: [full.optionId('5'), full.optionId('2')] },
    })
    const wholeReport = (await as(again, 'GET', `/api/results/${whole.body.attempt_id}/`)).body
    expect(wholeReport).toMatchObject({ score: 4, correct: 1, partial: 0 })
    expect(wholeReport.answers[0]).toMatchObject({ marks: 4 })
  })

  it("answers 404 for another learner's report of a typed paper", async () => {
    const { submitted } = await sat({})
    const other = await createUser(t.database)
    expect((await as(other, 'GET', `/api/results/${submitted.attempt_id}/`)).status).toBe(404)
  })
})
