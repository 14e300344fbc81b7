import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createBankQuestions, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { questionBody } from '../../test/fixtures/admin.fixtures'

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 10 L5 0 L10 10 Z"/></svg>'

// API.md "Question types": bank passages, their questions, papers that set them, and what learners read.
describe.each(dialects)('passages on %s', (dialect) => {
  const t = useTestApp(dialect)

  async function admin() {
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const send = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
      const response = await t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) })
      return { status: response.statusCode, body: response.body ? response.json() : undefined }
    }
    return { headers, send }
  }
  const bankQuestions = (topic: string, n: number) => createBankQuestions(t.db, topic, n, t.clock.now())
  const passageBody = (en: string) => ({ text: { en, ne: `${en} (ने)` }, image: null })

  async function learner() {
    const headers = await bearerFor(t.tokens, await createUser(t.database))
    const submit = async (quizId: number, attemptId: number) =>
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/quizzes/${quizId}/submit/`,
          headers,
          payload: { attempt_id: attemptId, answers: {} },
        })
      ).statusCode
    const get = async (url: string) => {
      const response = await t.app.inject({ method: 'GET', url, headers })
      return { status: response.statusCode, body: response.json() }
    }
    return Object.assign(get, { submit })
  }

  it('writes, reads, lists with search and paging, and deletes a passage; refuses bad input', async () => {
    const { send } = await admin()
    const created = await send('POST', '/api/admin/bank/passages/', {
      text: { en: 'Read: $x^2$ is a square.', ne: 'पढ्नुहोस्।' },
      image: { svg: SVG, caption: { en: 'A triangle', ne: 'त्रिभुज' } },
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      text: { en: 'Read: $x^2$ is a square.', ne: 'पढ्नुहोस्।' },
      image: { picture: null, caption: { en: 'A triangle', ne: 'त्रिभुज' } },
      question_ids: [],
    })
    expect(created.body.text.html.en).toContain('katex')
    expect(created.body.image.svg).toContain('<svg')
    for (let i = 0; i < 3; i++) await send('POST', '/api/admin/bank/passages/', passageBody(`Monsoon ${i}`))
    const id = created.body.id as number

    expect((await send('GET', `/api/admin/bank/passages/${id}/`)).body).toEqual(created.body)
    const all = await send('GET', '/api/admin/bank/passages/')
    expect(all.body.count).toBe(4)
    const page = await send('GET', '/api/admin/bank/passages/?search=MONSOON&page=2&page_size=2')
    expect(page.body.count).toBe(3)
    expect(page.body.results.map((p: { text: { en: string } }) => p.text.en)).toEqual(['Monsoon 0'])

    const replaced = await send('PUT', `/api/admin/bank/passages/${id}/`, passageBody('Rewritten'))
    expect(replaced.status).toBe(200)
    expect(replaced.body).toMatchObject({ id, text: { en: 'Rewritten' }, image: null })

    const blank = await send('POST', '/api/admin/bank/passages/', { text: { en: '  ' }, image: null })
    expect(blank.status).toBe(400)
    expect(blank.body.errors['text.en']).toBeDefined()
    const badMaths = await send('POST', '/api/admin/bank/passages/', passageBody('Broken $\\frac{1$'))
    expect(badMaths.status).toBe(400)
    expect(badMaths.body.errors['text.en']).toBeDefined()
    expect((await send('GET', '/api/admin/bank/passages/999999/')).status).toBe(404)
    expect((await send('PUT', '/api/admin/bank/passages/999999/', passageBody('x'))).status).toBe(404)

    expect((await send('DELETE', `/api/admin/bank/passages/${id}/`)).status).toBe(204)
    expect((await send('GET', `/api/admin/bank/passages/${id}/`)).status).toBe(404)
    expect((await send('DELETE', `/api/admin/bank/passages/${id}/`)).status).toBe(404)
  })

  it('sets its questions in order; refuses unknown, repeated and another passage’s questions', async () => {
    const { send } = await admin()
    const [q1, q2, q3] = await bankQuestions('english', 3)
    const a = (await send('POST', '/api/admin/bank/passages/', passageBody('A'))).body.id as number
    const b = (await send('POST', '/api/admin/bank/passages/', passageBody('B'))).body.id as number

    const set = await send('PUT', `/api/admin/bank/passages/${a}/questions/`, { question_ids: [q2, q1] })
    expect(set.status).toBe(200)
    expect(set.body.question_ids).toEqual([q2, q1])
    expect((await send('GET', `/api/admin/bank/passages/${a}/`)).body.question_ids).toEqual([q2, q1])

    const taken = await send('PUT', `/api/admin/bank/passages/${b}/questions/`, { question_ids: [q3, q1] })
    expect(taken.status).toBe(409)
    expect(taken.body).toMatchObject({ code: 'in_another_passage', errors: { 'question_ids.1': expect.any(Array) } })
    expect(taken.body.questions).toEqual([{ question_id: q1, passage_id: a }])

    const unknown = await send('PUT', `/api/admin/bank/passages/${b}/questions/`, { question_ids: [q3, 999999] })
    expect(unknown.status).toBe(400)
    expect(Object.keys(unknown.body.errors)).toEqual(['question_ids.1'])
    const repeated = await send('PUT', `/api/admin/bank/passages/${b}/questions/`, { question_ids: [q3, q3] })
    expect(repeated.status).toBe(400)
    expect(repeated.body.errors['question_ids.1']).toBeDefined()
    expect((await send('PUT', `/api/admin/bank/passages/999999/questions/`, { question_ids: [q3] })).status).toBe(404)

    // Setting the same passage's questions again (reordered, one dropped) is no conflict with itself.
    const again = await send('PUT', `/api/admin/bank/passages/${a}/questions/`, { question_ids: [q1] })
    expect(again.body.question_ids).toEqual([q1])
    expect((await send('PUT', `/api/admin/bank/passages/${b}/questions/`, { question_ids: [q2, q3] })).status).toBe(200)
  })

  it('sets a passage in a paper as its questions in order; refuses to delete it while a paper holds it', async () => {
    const { send } = await admin()
    const lone = await bankQuestions('gk', 2)
    const inPassage = await bankQuestions('english', 3)
    const passageId = (await send('POST', '/api/admin/bank/passages/', passageBody('The Koshi river'))).body.id
    await send('PUT', `/api/admin/bank/passages/${passageId}/questions/`, { question_ids: inPassage })
    const quizId = (
      await send('POST', '/api/quizzes/create-from-json/', {
        title: { en: 'Reading' },
        sections: [{ items: [{ question_id: lone[0] }, { passage_id: passageId }, { question_id: lone[1] }] }],
      })
    ).body.quiz_id as number

    const paper = (await send('GET', `/api/admin/quizzes/${quizId}/`)).body
    expect(paper.sections[0].items).toEqual([
      { question_id: lone[0] },
      { passage_id: passageId, question_ids: inPassage },
      { question_id: lone[1] },
    ])
    expect(paper.question_count).toBe(5)

    const inUse = await send('DELETE', `/api/admin/bank/passages/${passageId}/`)
    expect(inUse.status).toBe(409)
    expect(inUse.body).toMatchObject({ code: 'passage_in_use', quizzes: [{ id: quizId }] })

    // The learner's questions: numbered in paper order, the passage's carrying it, the others null.
    const get = await learner()
    const start = await get(`/api/quizzes/${quizId}/`)
    expect(start.status).toBe(200)
    const questions = []
    for (let n = 1; n <= 5; n++) questions.push((await get(`/api/quizzes/${quizId}/question/${n}/`)).body)
    expect(questions.map((q) => q.id)).toEqual([lone[0], ...inPassage, lone[1]])
    expect(questions.map((q) => q.number)).toEqual([1, 2, 3, 4, 5])
    expect(questions[0].passage).toBeNull()
    expect(questions[4].passage).toBeNull()
    for (const q of questions.slice(1, 4))
      expect(q.passage).toEqual({
        id: passageId,
        text: { en: 'The Koshi river', ne: 'The Koshi river (ने)', html: null },
        image: null,
      })

    // A device that holds the passage says so: its questions then carry it by id alone, others as before.
    const held = await get(`/api/quizzes/${quizId}/question/3/?passages_held=${passageId + 1},${passageId}`)
    expect(held.body).toEqual({ ...questions[2], passage: { id: passageId } })
    const other = await get(`/api/quizzes/${quizId}/question/3/?passages_held=${passageId + 1}`)
    expect(other.body).toEqual(questions[2])
    expect((await get(`/api/quizzes/${quizId}/question/1/?passages_held=${passageId}`)).body).toEqual(questions[0])
    for (const bad of ['', 'x', '0', '1,,2', Array.from({ length: 101 }, (_, i) => i + 1).join(',')]) {
      const refused = await get(`/api/quizzes/${quizId}/question/3/?passages_held=${bad}`)
      expect(refused.status, bad).toBe(400)
      expect(refused.body.errors).toHaveProperty('passages_held')
    }

    // An edit of the passage shows on the paper at once.
    await send('PUT', `/api/admin/bank/passages/${passageId}/`, passageBody('The Koshi, edited'))
    expect((await get(`/api/quizzes/${quizId}/question/2/`)).body.passage.text.en).toBe('The Koshi, edited')

    // The report shows each question under its passage, as the exam did (its picture as the report's questions').
    const attemptId = start.body.attempt.id as number
    const submitted = await get.submit(quizId, attemptId)
    expect(submitted).toBe(200)
    const report = (await get(`/api/results/${attemptId}/`)).body
    expect(report.questions.map((q: { passage: { id: number } | null }) => q.passage?.id ?? null)).toEqual([
      null,
      passageId,
      passageId,
      passageId,
      null,
    ])
    expect(report.questions[1].passage).toEqual({
      id: passageId,
      text: { en: 'The Koshi, edited', ne: 'The Koshi, edited (ने)', html: null },
      image: null,
    })

    const put = (sections: unknown) => send('PUT', `/api/admin/quizzes/${quizId}/sections/`, { sections })
    const unknown = await put([{ items: [{ passage_id: 999999 }] }])
    expect(unknown.status).toBe(400)
    expect(unknown.body.errors['sections.0.items.0.passage_id']).toBeDefined()
    const twice = await put([{ items: [{ question_id: inPassage[0] }, { passage_id: passageId }] }])
    expect(twice.status).toBe(400)
    expect(twice.body.errors['sections.0.items.1.passage_id']).toBeDefined()

    expect((await put([{ items: [{ question_id: lone[0] }] }])).status).toBe(200)
    expect((await send('DELETE', `/api/admin/bank/passages/${passageId}/`)).status).toBe(204)
  })

  it('creates a passage and its questions from JSON, and keeps each passage together and in order when shuffled', async () => {
    const { send } = await admin()
    const questions = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => questionBody({ text: { en: `${prefix} ${i + 1}` }, image: null }))
    const created = await send('POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Shuffled reading' },
      shuffle_questions: true,
      allowed_attempts: 1,
      sections: [
        {
          items: [
            ...questions('Lone', 4),
            { passage: { text: { en: 'First passage' }, image: null }, items: questions('First', 3) },
            { passage: { text: { en: 'Second passage' }, image: null }, items: questions('Second', 2) },
          ],
        },
      ],
    })
    expect(created.status).toBe(201)
    const quizId = created.body.quiz_id as number
    const list = (await send('GET', '/api/admin/bank/passages/?search=passage')).body
    expect(list.count).toBe(2)

    const orders = new Set<string>()
    for (let learnerIndex = 0; learnerIndex < 12; learnerIndex++) {
      const get = await learner()
      expect((await get(`/api/quizzes/${quizId}/`)).status).toBe(200)
      const texts: string[] = []
      for (let n = 1; n <= 9; n++) texts.push((await get(`/api/quizzes/${quizId}/question/${n}/`)).body.text.en)
      orders.add(texts.join('|'))
      for (const [prefix, size] of [
        ['First', 3],
        ['Second', 2],
      ] as const) {
        const start = texts.indexOf(`${prefix} 1`)
        expect(texts.slice(start, start + size)).toEqual(Array.from({ length: size }, (_, i) => `${prefix} ${i + 1}`))
      }
    }
    expect(orders.size).toBeGreaterThan(1)

    const bad = await send('POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Bad' },
      sections: [{ items: [{ passage: { text: { en: '' }, image: null }, items: [] }] }],
    })
    expect(bad.status).toBe(400)
    expect(bad.body.errors['sections.0.items.0.passage.text.en']).toBeDefined()
    expect(bad.body.errors['sections.0.items.0.items']).toBeDefined()
  })

  it('draws whole passages with passages: true, lone questions without; refuses a count whole passages cannot make', async () => {
    const { send } = await admin()
    const loneIds = await bankQuestions('english', 3)
    const sizes = [2, 3]
    const passageQuestions: number[][] = []
    for (const [index, size] of sizes.entries()) {
      const ids = await bankQuestions('english', size)
      passageQuestions.push(ids)
      const id = (await send('POST', '/api/admin/bank/passages/', passageBody(`P${index}`))).body.id
      await send('PUT', `/api/admin/bank/passages/${id}/questions/`, { question_ids: ids })
    }
    const quiz = async (items: unknown[]) =>
      send('POST', '/api/quizzes/create-from-json/', { title: { en: 'Draws' }, sections: [{ items }] })

    const unreachable = await quiz([{ draw: { topic: 'english', count: 4, passages: true } }])
    expect(unreachable.status).toBe(400)
    expect(unreachable.body.errors['sections.0.items.0.draw.count']).toBeDefined()
    const tooMany = await quiz([{ draw: { topic: 'english', count: 4 } }])
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.errors['sections.0.items.0.draw.count']).toEqual(['Only 3 questions match.'])

    const made = await quiz([
      { draw: { topic: 'english', count: 3, passages: true } },
      { draw: { topic: 'english', count: 3 } },
    ])
    expect(made.status).toBe(201)
    const quizId = made.body.quiz_id as number
    const paper = (await send('GET', `/api/admin/quizzes/${quizId}/`)).body
    expect(paper.sections[0].items[0]).toMatchObject({ draw: { passages: true, count: 3 }, pool: 5 })
    expect(paper.sections[0].items[1]).toMatchObject({ draw: { passages: false, count: 3 }, pool: 3 })

    // The Paper tab's live count (docs/decisions/131): each whole passage of the pool, as the save counts them.
    const pool = await send('GET', '/api/admin/bank/passages/pool/?topic=english')
    expect(pool.status).toBe(200)
    expect([...pool.body.passage_sizes].sort()).toEqual([2, 3])
    expect((await send('GET', '/api/admin/bank/passages/pool/?topic=maths')).body).toEqual({ passage_sizes: [] })
    expect((await send('GET', '/api/admin/bank/passages/pool/?difficulty=hardest')).status).toBe(400)
    const learnerCall = await learner()
    expect((await learnerCall('/api/admin/bank/passages/pool/')).status).toBe(403)

    const get = await learner()
    expect((await get(`/api/quizzes/${quizId}/`)).status).toBe(200)
    const drawn = []
    for (let n = 1; n <= 6; n++) drawn.push((await get(`/api/quizzes/${quizId}/question/${n}/`)).body)
    expect(drawn.slice(0, 3).map((q) => q.id)).toEqual(passageQuestions[1])
    expect(drawn.slice(0, 3).every((q) => q.passage !== null)).toBe(true)
    expect(
      drawn
        .slice(3)
        .map((q) => q.id)
        .sort(),
    ).toEqual([...loneIds].sort())
    expect(drawn.slice(3).every((q) => q.passage === null)).toBe(true)
  })
})
