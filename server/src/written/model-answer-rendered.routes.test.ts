import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { writtenBody, writtenPaper } from '../../test/written-papers'

// Issue 73: a written question's model answer holds tables and maths like every other text (API.md "Tables in
// questions"), rendered once when the revision is written.
const table = '| Year | Exports |\n|---|---:|\n| 2079 | $x^2$ |'
const modelAnswer = { en: `The figures:\n${table}`, ne: 'उत्तर $x^2$' }

describe.each(dialects)("a written question's model answer rendered on %s", (dialect) => {
  const t = useTestApp(dialect)
  const asAdmin = async () => bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
  const send = async (headers: Record<string, string>, method: 'GET' | 'POST' | 'PUT', url: string, body?: object) => {
    const response = await t.app.inject({ method, url, headers, ...(body ? { payload: body } : {}) })
    return { status: response.statusCode, body: response.body ? response.json() : undefined }
  }

  it('gives admins the source and the html, with the table and MathML, in the bank and the quiz', async () => {
    const headers = await asAdmin()
    const created = await send(
      headers,
      'POST',
      '/api/admin/bank/questions/',
      writtenBody({ model_answer: modelAnswer }),
    )
    expect(created.status).toBe(201)
    const shown = created.body.model_answer
    expect(shown).toMatchObject(modelAnswer)
    expect(shown.html.en).toContain('<table')
    expect(shown.html.en).toContain('<math')
    expect(shown.html.ne).toContain('<math')
    const read = await send(headers, 'GET', `/api/admin/bank/questions/${created.body.id}/`)
    expect(read.body.model_answer).toEqual(shown)

    // Plain text stays plain: no html.
    const edited = await send(headers, 'PUT', `/api/admin/bank/questions/${created.body.id}/`, writtenBody())
    expect(edited.body.model_answer).toEqual({ ...writtenBody().model_answer, html: null })

    const quiz = await send(headers, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Data interpretation' },
      questions: [writtenBody({ model_answer: modelAnswer })],
    })
    expect(quiz.status).toBe(201)
    const admin = await send(headers, 'GET', `/api/admin/quizzes/${quiz.body.quiz_id}/`)
    expect(admin.body.questions[0].model_answer.html.en).toContain('<table')
  })

  it("gives the learner's released result the plain reading and the html", async () => {
    const paper = await writtenPaper(t, { written: { model_answer: modelAnswer } })
    const { user, attemptId, answerId } = await paper.sit()
    await paper.mark(answerId, { adjustment: 500 })
    await paper.release()
    const result = await paper.as(user, 'GET', `/api/results/${attemptId}/written/${paper.questionId}/`)
    expect(result.status).toBe(200)
    const shown = result.body.model_answer
    expect(shown.html.en).toContain('<table')
    expect(shown.html.en).toContain('<math')
    expect(shown.html.ne).toContain('<math')
    // Learners never see TeX.
    expect(shown.en).not.toContain('$')
    expect(shown.ne).toBe('उत्तर x²')
  })

  it.each([
    ['a table row of the wrong length', { en: '| a | b |\n|---|---|\n| 1 |', ne: '' }, 'model_answer.en'],
    ['a table with no header line', { en: 'ok', ne: '| a | b |\n| 1 | 2 |' }, 'model_answer.ne'],
    ['an unmatched $', { en: 'costs $5', ne: '' }, 'model_answer.en'],
  ])('refuses a model answer with %s: 400 at its path, nothing stored', async (_name, model_answer, path) => {
    const headers = await asAdmin()
    const refused = await send(headers, 'POST', '/api/admin/bank/questions/', writtenBody({ model_answer }))
    expect(refused.status).toBe(400)
    expect(Object.keys(refused.body.errors)).toEqual([path])
    expect((await send(headers, 'GET', '/api/admin/bank/questions/')).body.count).toBe(0)

    const quiz = await send(headers, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Broken' },
      questions: [writtenBody({ model_answer })],
    })
    expect(quiz.status).toBe(400)
    expect(Object.keys(quiz.body.errors)).toEqual([`questions.0.${path}`])
  })
})
