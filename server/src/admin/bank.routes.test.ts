import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createQuiz, createUser } from '../../test/factories'
import { requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { questionBody } from '../../test/fixtures/admin.fixtures'

const HOUR = 3_600_000

describe.each(dialects)('question bank on %s', (dialect) => {
  const t = useTestApp(dialect)
  const asAdmin = async () => bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
  const send = async (
    headers: Record<string, string>,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => {
    const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
    return { status: response.statusCode, body: response.body ? response.json() : undefined }
  }
  const bankQuestion = (text: string, extra: Record<string, unknown> = {}) =>
    questionBody({ text: { en: text, ne: '' }, image: null, ...extra })

  it('creates questions with tags, difficulty and source; tags compare case-insensitively and keep the first spelling', async () => {
    const headers = await asAdmin()
    const first = await send(
      headers,
      'POST',
      '/api/admin/bank/questions/',
      bankQuestion('Who wrote Muna Madan?', {
        tags: ['Literature', 'Nepal', 'literature'],
        difficulty: 'easy',
        source: 'PSC 2081 Section Officer prelim',
        topic: 'Literature',
      }),
    )
    expect(first.status).toBe(201)
    expect(first.body).toMatchObject({
      tags: ['Literature', 'Nepal'],
      difficulty: 'easy',
      source: 'PSC 2081 Section Officer prelim',
      used_in: [],
    })
    const second = await send(
      headers,
      'POST',
      '/api/admin/bank/questions/',
      bankQuestion('Capital of Nepal?', {
        tags: ['NEPAL', 'Geography'],
        topic: 'Geography',
      }),
    )
    expect(second.body).toMatchObject({ tags: ['Nepal', 'Geography'], difficulty: null, source: null })
    expect((await send(headers, 'GET', `/api/admin/bank/questions/${second.body.id}/`)).body.tags).toEqual([
      'Nepal',
      'Geography',
    ])

    const list = async (query: string) =>
      (await send(headers, 'GET', `/api/admin/bank/questions/?${query}`)).body as {
        count: number
        results: { id: number }[]
      }
    expect((await list('')).results.map((q) => q.id)).toEqual([second.body.id, first.body.id])
    expect((await list('tag=nepal')).count).toBe(2)
    expect((await list('tag=LITERATURE')).results.map((q) => q.id)).toEqual([first.body.id])
    // Repeated, every tag must match (as a draw's tags): the Paper tab counts a draw's pool so.
    expect((await list('tag=nepal&tag=geography')).results.map((q) => q.id)).toEqual([second.body.id])
    expect((await list('tag=Nepal&tag=NEPAL')).count).toBe(2)
    expect((await list('tag=nepal&tag=geography&tag=literature')).count).toBe(0)
    expect((await list('search=muna')).results.map((q) => q.id)).toEqual([first.body.id])
    expect((await list('search=%25')).count).toBe(0)
    expect((await list('difficulty=none')).results.map((q) => q.id)).toEqual([second.body.id])
    expect((await list('difficulty=easy')).results.map((q) => q.id)).toEqual([first.body.id])
    expect((await list('topic=geography')).results.map((q) => q.id)).toEqual([second.body.id])
    expect((await list('source=PSC%202081%20Section%20Officer%20prelim')).count).toBe(1)
    expect((await list(`ids=${first.body.id}`)).results.map((q) => q.id)).toEqual([first.body.id])
    const paged = await list('page=2&page_size=1')
    expect(paged).toMatchObject({ count: 2, results: [{ id: first.body.id }] })
    expect((await send(headers, 'GET', '/api/admin/bank/questions/?page_size=501')).status).toBe(400)

    const facets = (await send(headers, 'GET', '/api/admin/bank/facets/')).body
    expect(facets).toEqual({
      topics: [
        { topic: 'Geography', easy: 0, medium: 0, hard: 0, unrated: 1, total: 1 },
        { topic: 'Literature', easy: 1, medium: 0, hard: 0, unrated: 0, total: 1 },
      ],
      tags: expect.arrayContaining([
        { tag: 'Nepal', total: 2 },
        { tag: 'Literature', total: 1 },
        { tag: 'Geography', total: 1 },
      ]),
      sources: [{ source: 'PSC 2081 Section Officer prelim', total: 1 }],
      total: 2,
    })
  })

  it('lists a question with maths with its TeX source and its rendering, as the question list does', async () => {
    const headers = await asAdmin()
    await send(headers, 'POST', '/api/admin/bank/questions/', bankQuestion('Half is $\\frac{1}{2}$'))
    await send(headers, 'POST', '/api/admin/bank/questions/', bankQuestion('No maths here'))
    const { body } = await send(headers, 'GET', '/api/admin/bank/questions/')
    const [plain, maths] = (body as { results: { text: { en: string; html: { en: string } | null } }[] }).results
    expect(plain!.text.html).toBeNull()
    expect(maths!.text.en).toBe('Half is $\\frac{1}{2}$')
    expect(maths!.text.html!.en).toContain('<math')
    expect(maths!.text.html!.en).not.toContain('$')
  })

  it('refuses bad tags, difficulty and source with 400 at their paths, storing nothing', async () => {
    const headers = await asAdmin()
    const response = await send(
      headers,
      'POST',
      '/api/admin/bank/questions/',
      bankQuestion('Bad', {
        tags: ['x'.repeat(41), ...Array.from({ length: 20 }, (_, i) => `t${i}`)],
        difficulty: 'trivial',
        source: 'y'.repeat(201),
      }),
    )
    expect(response.status).toBe(400)
    expect(Object.keys(response.body.errors).sort()).toEqual(['difficulty', 'source', 'tags'])
    const long = await send(
      headers,
      'POST',
      '/api/admin/bank/questions/',
      bankQuestion('Long', { tags: ['x'.repeat(41)] }),
    )
    expect(Object.keys(long.body.errors)).toEqual(['tags.0'])
    expect(await t.db.selectFrom('questions').select('id').execute()).toEqual([])
    const learner = await bearerFor(t.tokens, await createUser(t.database))
    expect((await send(learner, 'GET', '/api/admin/bank/questions/')).status).toBe(403)
  })

  it('shows used_in, responses and facility; refuses to delete a used question with 409 question_in_use', async () => {
    const headers = await asAdmin()
    const { quiz, questionIds, correctOptionIds, wrongOptionIds } = await createQuiz(
      t.database,
      { start_time: t.clock.now() - HOUR },
      { questionCount: 2 },
    )
    const call = requestsAs(t)
    for (const [index, option] of [correctOptionIds[0], wrongOptionIds[0], correctOptionIds[0]].entries()) {
      const learner = await createUser(t.database)
      // The third learner's attempt is still in progress: only finished attempts count.
      if (index === 2) await call(learner, 'GET', `/api/quizzes/${quiz.id}/`)
      else await call(learner, 'POST', `/api/quizzes/${quiz.id}/submit/`, { answers: { [questionIds[0]!]: option } })
    }
    const list = (await send(headers, 'GET', '/api/admin/bank/questions/')).body
    const row = list.results.find((q: { id: number }) => q.id === questionIds[0])
    expect(row).toMatchObject({
      used_in: [{ quiz_id: quiz.id, title: { en: quiz.title_en, ne: quiz.title_ne } }],
      responses: 2,
      facility: 0.5,
      option_count: 4,
    })
    expect(list.results.find((q: { id: number }) => q.id === questionIds[1])).toMatchObject({
      responses: 0,
      facility: null,
    })

    const refused = await send(headers, 'DELETE', `/api/admin/bank/questions/${questionIds[0]}/`)
    expect(refused.status).toBe(409)
    expect(refused.body).toEqual({
      detail: expect.any(String),
      code: 'question_in_use',
      quizzes: [{ id: quiz.id, title: { en: quiz.title_en, ne: quiz.title_ne } }],
    })
    // Out of the paper, it is unused and may leave the bank; the report still shows it.
    expect((await send(headers, 'DELETE', `/api/admin/quizzes/${quiz.id}/questions/${questionIds[0]}/`)).status).toBe(
      204,
    )
    expect(
      (await send(headers, 'GET', '/api/admin/bank/questions/?unused=true')).body.results.map(
        (q: { id: number }) => q.id,
      ),
    ).toEqual([questionIds[0]])
    expect((await send(headers, 'DELETE', `/api/admin/bank/questions/${questionIds[0]}/`)).status).toBe(204)
    expect((await send(headers, 'GET', `/api/admin/bank/questions/${questionIds[0]}/`)).status).toBe(404)
    expect((await send(headers, 'DELETE', `/api/admin/bank/questions/${questionIds[0]}/`)).status).toBe(404)
  })

  it('edits a bank question as a new revision and adds bank questions to a paper by id', async () => {
    const headers = await asAdmin()
    const created = await send(headers, 'POST', '/api/admin/bank/questions/', bankQuestion('Old', { tags: ['a'] }))
    const edited = await send(
      headers,
      'PUT',
      `/api/admin/bank/questions/${created.body.id}/`,
      bankQuestion('New', {
        tags: ['b'],
        difficulty: 'hard',
      }),
    )
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ id: created.body.id, text: { en: 'New' }, tags: ['b'], difficulty: 'hard' })
    expect(
      await t.db.selectFrom('question_revisions').select('id').where('question_id', '=', created.body.id).execute(),
    ).toHaveLength(2)

    const { quiz } = await createQuiz(t.database, {}, { questionCount: 1 })
    const add = (payload: object) => send(headers, 'POST', `/api/admin/quizzes/${quiz.id}/questions/`, payload)
    const added = await add({ question_id: created.body.id })
    expect(added.status).toBe(201)
    expect(added.body).toMatchObject({ id: created.body.id, text: { en: 'New' } })
    const again = await add({ question_id: created.body.id })
    expect(again.status).toBe(400)
    expect(again.body.errors.question_id).toEqual(['This question is already in the paper.'])
    const unknown = await add({ question_id: 99999 })
    expect(unknown.body.errors.question_id).toEqual(['No such question in the bank.'])
    const detail = (await send(headers, 'GET', `/api/admin/quizzes/${quiz.id}/`)).body
    expect(detail.question_count).toBe(2)
    expect(detail.questions.at(-1).id).toBe(created.body.id)
  })
})
