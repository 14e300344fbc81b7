import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createBankQuestions, createUser } from '../../test/factories'
import { requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { writtenBody } from '../../test/written-papers'

const HOUR = 3_600_000

// API.md "Written answers marked by rubric": written questions go into drawn papers; a draw may filter `type`.
describe.each(dialects)('draws filtering the question type on %s', (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)

  async function bank() {
    const admin = await createUser(t.database, { is_admin: 1 })
    const choice = await createBankQuestions(t.db, 'Polity', 3, t.clock.now())
    const written: number[] = []
    for (const n of [1, 2]) {
      const created = await call(
        admin,
        'POST',
        '/api/admin/bank/questions/',
        writtenBody({ topic: 'Polity', text: { en: `Written ${n}` } }),
      )
      expect(created.status, created.raw).toBe(201)
      written.push(created.body.id)
    }
    const quiz = (sections: unknown) =>
      call(admin, 'POST', '/api/quizzes/create-from-json/', {
        title: { en: 'Drawn by type' },
        start_time: new Date(t.clock.now() - HOUR).toISOString(),
        sections,
      })
    return { admin, choice, written, quiz }
  }

  it("draws written questions and choice questions by type, and the admin's paper reads the filter back", async () => {
    const { admin, choice, written, quiz } = await bank()
    const created = await quiz([
      {
        items: [
          { draw: { topic: 'Polity', type: 'choice', count: 2 } },
          { draw: { topic: 'Polity', type: 'written', count: 2 } },
        ],
      },
    ])
    expect(created.status, created.raw).toBe(201)
    const quizId: number = created.body.quiz_id
    const learner = await createUser(t.database)
    const started = await call(learner, 'GET', `/api/quizzes/${quizId}/`)
    expect(started.status, started.raw).toBe(200)
    const ids = (started.body.questions as { id: number }[]).map((question) => question.id)
    expect(ids).toHaveLength(4)
    // The start lists ids only; each question's own payload carries its type and marks.
    const questions: { id: number; type: string; marks: number | null }[] = []
    for (const [index] of ids.entries())
      questions.push((await call(learner, 'GET', `/api/quizzes/${quizId}/question/${index + 1}/`)).body)
    const drawnWritten = questions.filter((question) => question.type === 'written')
    expect(drawnWritten.map((question) => question.id).sort()).toEqual([...written].sort())
    expect(drawnWritten.every((question) => question.marks === 10)).toBe(true)
    const drawnChoice = questions.filter((question) => question.type === 'choice')
    expect(drawnChoice).toHaveLength(2)
    expect(drawnChoice.every((question) => choice.includes(question.id))).toBe(true)

    const paper = await t.app.inject({
      method: 'GET',
      url: `/api/admin/quizzes/${quizId}/`,
      headers: await bearerFor(t.tokens, admin),
    })
    expect(paper.statusCode, paper.body).toBe(200)
    const items = paper.json().sections[0].items
    expect(items[0]).toMatchObject({ draw: { type: 'choice', count: 2 }, pool: 3 })
    expect(items[1]).toMatchObject({ draw: { type: 'written', count: 2 }, pool: 2 })
  })

  it('draws either type without the filter, and refuses an unknown type or a pool too small for it', async () => {
    const { quiz } = await bank()
    const either = await quiz([{ items: [{ draw: { topic: 'Polity', count: 5 } }] }])
    expect(either.status, either.raw).toBe(201)
    const unknown = await quiz([{ items: [{ draw: { topic: 'Polity', type: 'essay', count: 1 } }] }])
    expect(unknown.status).toBe(400)
    expect(Object.keys(unknown.body.errors ?? {}).join(' ')).toContain('sections.0.items.0.draw.type')
    const tooMany = await quiz([{ items: [{ draw: { topic: 'Polity', type: 'written', count: 3 } }] }])
    expect(tooMany.status).toBe(400)
  })
})
