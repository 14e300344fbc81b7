import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { questionBody } from '../../test/fixtures/admin.fixtures'
import { writtenBody } from '../../test/written-papers'

describe.each(dialects)('written questions in the bank on %s', (dialect) => {
  const t = useTestApp(dialect)
  const asAdmin = async () => bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
  const send = async (
    headers: Record<string, string>,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: object,
  ) => {
    const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
    return { status: response.statusCode, body: response.body ? response.json() : undefined }
  }

  it('creates, reads, edits and lists a written question with its marks, word limit and model answer', async () => {
    const headers = await asAdmin()
    const created = await send(headers, 'POST', '/api/admin/bank/questions/', writtenBody({ tags: ['Written'] }))
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      type: 'written',
      marks: 10,
      word_limit: 300,
      model_answer: { en: 'An independent body that ...', ne: '' },
      options: [],
      tags: ['Written'],
    })
    const id = created.body.id
    const choice = await send(headers, 'POST', '/api/admin/bank/questions/', questionBody({ image: null }))
    expect(choice.body).toMatchObject({ type: 'choice', marks: null, word_limit: null, model_answer: null })

    const edited = await send(
      headers,
      'PUT',
      `/api/admin/bank/questions/${id}/`,
      writtenBody({ marks: 12.5, word_limit: null, model_answer: null }),
    )
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ type: 'written', marks: 12.5, word_limit: null, model_answer: null })
    expect(edited.body.revision_id).not.toBe(created.body.revision_id)
    expect((await send(headers, 'GET', `/api/admin/bank/questions/${id}/`)).body).toMatchObject({ marks: 12.5 })

    const written = await send(headers, 'GET', '/api/admin/bank/questions/?type=written')
    expect(written.body.count).toBe(1)
    expect(written.body.results[0]).toMatchObject({ id, type: 'written', marks: 12.5, option_count: 0 })
    const choices = await send(headers, 'GET', '/api/admin/bank/questions/?type=choice')
    expect(choices.body.results.map((row: { id: number }) => row.id)).toEqual([choice.body.id])
    expect(choices.body.results[0]).toMatchObject({ type: 'choice', marks: null })
    expect((await send(headers, 'GET', '/api/admin/bank/questions/?type=essay')).status).toBe(400)
  })

  it.each([
    ['marks below 0.5', { marks: 0.4 }, 'marks'],
    ['marks above 100', { marks: 100.5 }, 'marks'],
    ['marks with 3 decimals', { marks: 5.125 }, 'marks'],
    ['no marks', { marks: undefined }, 'marks'],
    ['options', { options: [{ text: { en: 'A' }, is_correct: true }] }, 'options'],
    ['a word limit under 10', { word_limit: 9 }, 'word_limit'],
    ['a word limit over 5000', { word_limit: 5001 }, 'word_limit'],
    ['a fractional word limit', { word_limit: 100.5 }, 'word_limit'],
    ['an unknown type', { type: 'essay', options: undefined }, 'type'],
    ['no text', { text: { en: '' } }, 'text.en'],
  ])('refuses a written question with %s: 400 at its path, nothing stored', async (_name, change, path) => {
    const headers = await asAdmin()
    const response = await send(headers, 'POST', '/api/admin/bank/questions/', writtenBody(change))
    expect(response.status).toBe(400)
    expect(response.body.code).toBe('validation_error')
    expect(Object.keys(response.body.errors)).toContain(path)
    expect((await send(headers, 'GET', '/api/admin/bank/questions/')).body.count).toBe(0)
  })

  it('accepts options sent empty or null for a written question', async () => {
    const headers = await asAdmin()
    for (const options of [[], null])
      expect((await send(headers, 'POST', '/api/admin/bank/questions/', writtenBody({ options }))).status).toBe(201)
  })

  it('takes written questions in create-from-JSON, and names a bad one by its path', async () => {
    const headers = await asAdmin()
    const created = await send(headers, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Section Officer written, set 1' },
      questions: [questionBody({ image: null }), writtenBody({ marks: 5 })],
    })
    expect(created.status).toBe(201)
    const quiz = await send(headers, 'GET', `/api/admin/quizzes/${created.body.quiz_id}/`)
    // The quiz's own payload says which question is which, as the bank's does (issue 73).
    expect(quiz.body.questions[0]).toMatchObject({ type: 'choice', marks: null, word_limit: null, model_answer: null })
    expect(quiz.body.questions[1]).toMatchObject({
      type: 'written',
      marks: 5,
      word_limit: writtenBody().word_limit,
      model_answer: { en: writtenBody().model_answer.en },
    })
    const writtenId = quiz.body.questions[1].id
    expect((await send(headers, 'GET', `/api/admin/bank/questions/${writtenId}/`)).body).toMatchObject({
      type: 'written',
      marks: 5,
      options: [],
    })

    const refused = await send(headers, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Broken' },
      sections: [{ items: [questionBody({ image: null }), writtenBody({ marks: 0.001, options: [{}] })] }],
    })
    expect(refused.status).toBe(400)
    expect(Object.keys(refused.body.errors).sort()).toEqual(['sections.0.items.1.marks', 'sections.0.items.1.options'])
  })
})
