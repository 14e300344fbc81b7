import { describe, expect, it } from 'vitest'
import type { UserRow } from '../db/schema'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'

// API.md "Tables in questions": pipe rows in any text, rendered once when written into `html` with column headers,
// carried by every learner and admin payload and the printed booklet; a malformed table is a 400 at its field.

const TABLE = '| Year | Exports |\n|---|---:|\n| 2080 | $x^2$ |\n| 2081 | <15> |'
const TH = '<th scope="col">Year</th>'

const tableQuestion = (n: number) => ({
  text: { en: `Q${n}: which year grew?\n${TABLE}`, ne: `प्रश्न ${n}\n| वर्ष | निर्यात |\n|---|---|\n| २०८० | १२ |` },
  hint: { en: `Compare:\n${TABLE}`, ne: '' },
  topic: 'data',
  options: [
    { text: { en: '| a | b |\n|---|---|\n| 1 | 2 |', ne: '' }, is_correct: true },
    { text: { en: '2081', ne: '' }, is_correct: false },
  ],
})

describe.each(dialects)('tables in questions on %s', (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)
  let admin: UserRow

  async function createQuiz(questions: unknown[]) {
    admin = await createUser(t.database, { is_admin: 1 })
    return call(admin, 'POST', '/api/quizzes/create-from-json/', { title: { en: 'Data mock' }, questions })
  }

  it('answers 400 at the field path naming the row, and stores nothing (create-from-JSON)', async () => {
    const bad = tableQuestion(1)
    bad.text.ne = '| क | ख |\n|---|---|\n| १ |'
    bad.options[1]!.text.en = '| a | b |\n| 1 | 2 |'
    bad.hint.en = `| ${'c | '.repeat(9)}\n|${'---|'.repeat(9)}`
    const response = await createQuiz([tableQuestion(0), bad])
    expect(response.status).toBe(400)
    expect(response.body.errors).toEqual({
      'questions.1.text.ne': ['Table 1, row 1 has 1 cells where its header has 2.'],
      'questions.1.hint.en': ['Table 1 has 9 columns; a table may have at most 8.'],
      'questions.1.options.1.text.en': ['Table 1 has no header line: its second row must be a line such as |---|---|.'],
    })
    for (const table of ['quizzes', 'question_revisions'] as const)
      expect(await t.db.selectFrom(table).select('id').execute()).toEqual([])
  })

  it('answers 400 on the question and bank routes for too many rows or tables', async () => {
    const created = await createQuiz([tableQuestion(1)])
    const quizId = created.body.quiz_id as number
    const rows = `| a |\n|---|\n${'| r |\n'.repeat(31)}`
    const bad = { ...tableQuestion(2), text: { en: rows, ne: `${TABLE}\n\n`.repeat(5) } }
    for (const url of [`/api/admin/quizzes/${quizId}/questions/`, '/api/admin/bank/questions/']) {
      const response = await call(admin, 'POST', url, bad)
      expect(response.status, url).toBe(400)
      expect(response.body.errors).toEqual({
        'text.en': ['Table 1 has 31 rows; a table may have at most 30.'],
        'text.ne': ['This text holds 5 tables; a text may hold at most 4.'],
      })
    }
  })

  it('shows admins the pipe rows they wrote beside the table, in the quiz, the bank and the booklet', async () => {
    const created = await createQuiz([tableQuestion(1)])
    const quizId = created.body.quiz_id as number
    const quiz = (await call(admin, 'GET', `/api/admin/quizzes/${quizId}/`)).body
    expect(quiz.questions[0].text).toEqual({
      en: `Q1: which year grew?\n${TABLE}`,
      ne: expect.stringContaining('| वर्ष | निर्यात |'),
      html: { en: expect.stringContaining(TH), ne: expect.stringContaining('<th scope="col">वर्ष</th>') },
    })
    expect(quiz.questions[0].text.html.en).toContain('<td class="align-right">&lt;15&gt;</td>')
    const bank = (await call(admin, 'GET', '/api/admin/bank/questions/')).body
    expect(bank.results[0].text.html.en).toContain(TH)

    const sitting = await call(admin, 'POST', `/api/admin/quizzes/${quizId}/sittings/`, {
      held_at: '2026-11-28T04:15:00.000Z',
    })
    expect(sitting.status).toBe(201)
    const paper = (await call(admin, 'GET', `/api/admin/sittings/${sitting.body.id}/paper/?set=A`)).body
    const printed = paper.sections[0].questions[0]
    expect(printed.text.html.en).toContain(TH)
    expect(printed.text.html.en).toContain('<math')
    expect(printed.options.map((option: { text: { html: unknown } }) => option.text.html)).toContainEqual({
      en: expect.stringContaining('<th scope="col">a</th>'),
      ne: '',
    })
  })

  it('gives learners the table in html and its pipe rows with plain maths, in every payload', async () => {
    const created = await createQuiz([tableQuestion(1)])
    const quizId = created.body.quiz_id as number
    const learner = await createUser(t.database)
    const get = async (url: string, method: 'GET' | 'POST' = 'GET', body?: unknown) => {
      const response = await call(learner, method, url, body)
      expect(response.status, url).toBe(200)
      return response.body
    }
    const attempt = await get(`/api/quizzes/${quizId}/`)
    const question = await get(`/api/quizzes/${quizId}/question/1/`)
    expect(question.text.html.en).toContain(TH)
    expect(question.text.en).toBe(
      'Q1: which year grew?\n| Year | Exports |\n| --- | ---: |\n| 2080 | x² |\n| 2081 | <15> |',
    )
    expect(question.options.map((option: { text: { html: unknown } }) => option.text.html)).toContainEqual({
      en: expect.stringContaining('<table>'),
      ne: '',
    })
    const submitted = await get(`/api/quizzes/${quizId}/submit/`, 'POST', {
      answers: { [attempt.questions[0].id]: null },
    })
    const report = await get(`/api/results/${submitted.attempt_id}/`)
    expect(report.questions[0].text.html.en).toContain(TH)
    expect(report.questions[0].hint.html.en).toContain(TH)
    const deck = await get('/api/practice/')
    expect(deck.cards[0].question.text.html.en).toContain(TH)
  })
})
