import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { typedPaper } from '../../test/fixtures/question-types.fixtures'
import { injectAs } from '../../test/requests'

// API.md "Question types": statistics and the attempts CSV of a paper with multiple and numeric questions.

describe.each(dialects)('statistics and CSV of multiple and numeric questions on %s', (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsAs(t)

  async function sittings() {
    const paper = await typedPaper(t, as)
    const { multipleId: m, numericId: n, choiceId: c, optionId: o } = paper
    const sheets: Record<number, unknown>[] = [
      { [m]: [o('2'), o('5')], [n]: '3', [c]: paper.right }, // +4 (share 1), a wrong 3
      { [m]: [o('2')], [n]: '3.0', [c]: paper.wrong }, // +1 (share 0.25), "3.0" is the wrong 3 again
      { [m]: [o('2'), o('4')], [n]: '११' }, // -2 (share -0.5), a wrong 11
      {}, // unanswered: share 0
      { [m]: [o('5'), o('2')], [n]: '3.14' }, // +4, a right number
    ]
    const attemptIds: number[] = []
    for (const answers of sheets) {
      const learner = await createUser(t.database)
      const submitted = await as(learner, 'POST', `/api/quizzes/${paper.quizId}/submit/`, { answers })
      expect(submitted.status, submitted.raw).toBe(200)
      attemptIds.push(submitted.body.attempt_id)
    }
    return { ...paper, attemptIds }
  }

  it("gives a multiple question's facility as mean marks over full marks and a numeric question's wrong values", async () => {
    const paper = await sittings()
    const response = await as(paper.admin, 'GET', `/api/admin/quizzes/${paper.quizId}/statistics/`)
    expect(response.status, response.raw).toBe(200)
    const [multiple, numeric, choice] = response.body.questions
    // (1 + 0.25 - 0.5 + 0 + 1) / 5
    expect(multiple).toMatchObject({ id: paper.multipleId, type: 'multiple', facility: 0.35, unanswered: 1 })
    expect(multiple).not.toHaveProperty('wrong_values')
    const countOf = (en: string) =>
      multiple.options.find((option: { id: number }) => option.id === paper.optionId(en)).count
    expect([countOf('2'), countOf('4'), countOf('5'), countOf('9')]).toEqual([4, 1, 2, 0])
    expect(
      multiple.options
        .filter((o: { is_correct: boolean }) => o.is_correct)
        .map((o: { id: number }) => o.id)
        .sort(),
    ).toEqual([paper.optionId('2'), paper.optionId('5')].sort())
    expect(numeric).toMatchObject({
      id: paper.numericId,
      type: 'numeric',
      facility: 0.2,
      unanswered: 1,
      options: [],
      wrong_values: [
        { value: '3', count: 2 },
        { value: '11', count: 1 },
      ],
    })
    expect(choice).toMatchObject({ type: 'choice', facility: 0.2 })
    expect(choice).not.toHaveProperty('wrong_values')
    expect(response.body.scores).toEqual([-2, 0, 0.75, 5, 7])

    const learner = await createUser(t.database)
    expect((await as(learner, 'GET', `/api/admin/quizzes/${paper.quizId}/statistics/`)).status).toBe(403)
  })

  it('keeps only the five most frequent wrong values, most frequent first', async () => {
    const paper = await typedPaper(t, as)
    for (const typed of ['1', '2', '2', '3', '3', '3', '4', '5', '6', '6', '3.14']) {
      const learner = await createUser(t.database)
      await as(learner, 'POST', `/api/quizzes/${paper.quizId}/submit/`, { answers: { [paper.numericId]: typed } })
    }
    const numeric = (await as(paper.admin, 'GET', `/api/admin/quizzes/${paper.quizId}/statistics/`)).body.questions[1]
    expect(numeric.wrong_values).toEqual([
      { value: '3', count: 3 },
      { value: '2', count: 2 },
      { value: '6', count: 2 },
      { value: '1', count: 1 },
      { value: '4', count: 1 },
    ])
  })

  it('writes a multiple answer as its letters and a numeric one as the number typed in the attempts CSV', async () => {
    const paper = await sittings()
    const response = await injectAs(t)(paper.admin, 'GET', `/api/admin/quizzes/${paper.quizId}/attempts.csv?which=all`)
    expect(response.statusCode).toBe(200)
    const rows = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      // A cell with `;` is quoted (csv.ts quotes what a spreadsheet in another locale would split).
      .map((line) => line.split(',').map((cell) => cell.replace(/^"(.*)"$/, '$1')))
    const header = rows[0]!
    const q = (n: number) => header.indexOf(`Q${n}`)
    const rowOf = (attemptId: number) => rows.find((row) => row[0] === String(attemptId))!
    const cells = (attemptId: number) => [1, 2, 3].map((n) => rowOf(attemptId)[q(n)])
    expect(cells(paper.attemptIds[0]!)).toEqual(['A;C', '3', 'A'])
    expect(cells(paper.attemptIds[1]!)).toEqual(['A', '3', 'B'])
    expect(cells(paper.attemptIds[2]!)).toEqual(['A;B', '11', ''])
    expect(cells(paper.attemptIds[3]!)).toEqual(['', '', ''])
    expect(cells(paper.attemptIds[4]!)).toEqual(['A;C', '3.14', ''])
  })
})
