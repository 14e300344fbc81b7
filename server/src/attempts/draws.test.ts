import { bankMessages } from '@quiz/contracts'
import { describe, expect, it } from 'vitest'
import type { UserRow } from '../db/schema'
import { dialects } from '../../test/dialects'
import { bearerFor, createBankQuestions, createUser } from '../../test/factories'
import { requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { buildApp } from '../app'
import { questionBody } from '../../test/fixtures/admin.fixtures'

const HOUR = 3_600_000

// API.md "Papers": draws happen when an attempt starts, unseen questions first, then those shown longest ago.
describe.each(dialects)('draws at attempt start on %s', (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)

  /** `n` bank questions on `topic`; returns their ids. */
  const bankQuestions = (topic: string, n: number) => createBankQuestions(t.db, topic, n, t.clock.now())

  async function drawQuiz(body: Record<string, unknown>) {
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/quizzes/create-from-json/',
      headers,
      payload: {
        title: { en: 'Drawn' },
        start_time: new Date(t.clock.now() - HOUR).toISOString(),
        allowed_attempts: 10,
        ...body,
      },
    })
    expect(response.statusCode, response.body).toBe(201)
    return { quizId: response.json().quiz_id as number, headers }
  }

  /** The question ids of a new attempt: starts it and submits it blank. */
  async function takeOnce(user: UserRow, quizId: number) {
    const started = await call(user, 'GET', `/api/quizzes/${quizId}/`)
    expect(started.status, started.raw).toBe(200)
    await call(user, 'POST', `/api/quizzes/${quizId}/submit/`, { answers: {} })
    t.clock.advance(60_000)
    return (started.body.questions as { id: number }[]).map((q) => q.id)
  }

  it('shows a learner no question twice over a pool of exactly five times the count, then the least recently seen', async () => {
    const pool = await bankQuestions('history', 15)
    await bankQuestions('science', 10)
    const { quizId } = await drawQuiz({ sections: [{ items: [{ draw: { topic: 'History', count: 3 } }] }] })
    const user = await createUser(t.database)
    const papers: number[][] = []
    for (let i = 0; i < 5; i++) papers.push(await takeOnce(user, quizId))
    const seen = papers.flat()
    expect(seen).toHaveLength(15)
    expect(new Set(seen).size).toBe(15)
    expect(seen.every((id) => pool.includes(id))).toBe(true)
    // The sixth attempt gets those shown longest ago: the first attempt's questions.
    expect(new Set(await takeOnce(user, quizId))).toEqual(new Set(papers[0]))
    // Another learner starts afresh: anything of the pool, unseen by them.
    const other = await takeOnce(await createUser(t.database), quizId)
    expect(other).toHaveLength(3)
  })

  /** Another process's view: the app closes (its show log writes what it holds) and a new one opens the database. */
  async function restart() {
    await t.app.close()
    const { config, database, clock, sms, tokens } = t
    t.app = await buildApp({ config, database, clock, sms, tokens }, { logger: false })
    await t.app.ready()
  }

  // A paper's shared questions are recorded as one set per start (docs/decisions/039): they count as seen all the same.
  it('counts a fixed paper seen in another quiz as seen for a later draw, in this process and in another', async () => {
    const pool = await bankQuestions('zoology', 10)
    const fixed = pool.slice(0, 5)
    const { quizId: fixedQuiz } = await drawQuiz({
      sections: [{ items: fixed.map((id) => ({ question_id: id })) }],
    })
    const { quizId: drawnQuiz } = await drawQuiz({ sections: [{ items: [{ draw: { topic: 'zoology', count: 5 } }] }] })
    const here = await createUser(t.database)
    expect(new Set(await takeOnce(here, fixedQuiz))).toEqual(new Set(fixed))
    expect(new Set(await takeOnce(here, drawnQuiz))).toEqual(new Set(pool.slice(5)))

    const there = await createUser(t.database)
    await takeOnce(there, fixedQuiz)
    await restart()
    // One row for the start, none per question.
    const rows = (table: 'set_shows' | 'question_shows') =>
      t.db.selectFrom(table).select('user_id').where('user_id', '=', there.id).execute()
    expect(await rows('set_shows')).toHaveLength(1)
    expect(await rows('question_shows')).toHaveLength(0)
    expect(new Set(await takeOnce(there, drawnQuiz))).toEqual(new Set(pool.slice(5)))
  })

  it("counts a frozen paper's questions as seen for a later draw over the same pool", async () => {
    const pool = await bankQuestions('botany', 10)
    const { quizId: frozenQuiz } = await drawQuiz({
      draw_mode: 'frozen',
      sections: [{ items: [{ draw: { topic: 'botany', count: 5 } }] }],
    })
    const { quizId: drawnQuiz } = await drawQuiz({ sections: [{ items: [{ draw: { topic: 'botany', count: 5 } }] }] })
    const first = await createUser(t.database)
    const frozen = await takeOnce(first, frozenQuiz)
    const second = await createUser(t.database)
    expect(await takeOnce(second, frozenQuiz)).toEqual(frozen)
    await restart()
    const unseen = pool.filter((id) => !frozen.includes(id))
    expect(new Set(await takeOnce(first, drawnQuiz))).toEqual(new Set(unseen))
    expect(new Set(await takeOnce(second, drawnQuiz))).toEqual(new Set(unseen))
  })

  it('draws by tags (all of them, case-insensitively), difficulty and source', async () => {
    const { headers } = await drawQuiz({ questions: [questionBody({ image: null })] })
    const post = async (text: string, extra: Record<string, unknown>) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/admin/bank/questions/',
          headers,
          payload: questionBody({ text: { en: text }, image: null, ...extra }),
        })
      ).json().id as number
    const wanted = await post('Both tags, hard, PSC', {
      tags: ['Nepal', 'History'],
      difficulty: 'hard',
      source: 'PSC 2081',
    })
    await post('One tag only', { tags: ['nepal'], difficulty: 'hard', source: 'PSC 2081' })
    await post('Both tags, easy', { tags: ['NEPAL', 'history'], difficulty: 'easy', source: 'PSC 2081' })
    await post('Both tags, hard, other source', { tags: ['nepal', 'history'], difficulty: 'hard', source: 'IOE' })
    const { quizId } = await drawQuiz({
      sections: [
        { items: [{ draw: { tags: ['HISTORY', 'nepal'], difficulty: 'hard', source: 'psc 2081', count: 1 } }] },
      ],
    })
    expect(await takeOnce(await createUser(t.database), quizId)).toEqual([wanted])
  })

  it('never draws a question deleted since an earlier start read the pool, nor misses one added since', async () => {
    const pool = await bankQuestions('botany', 6)
    const { quizId } = await drawQuiz({ sections: [{ items: [{ draw: { topic: 'botany', count: 3 } }] }] })
    await takeOnce(await createUser(t.database), quizId)
    const gone = pool.slice(0, 3)
    await t.db.updateTable('questions').set({ deleted_at: t.clock.now() }).where('id', 'in', gone).execute()
    for (let i = 0; i < 3; i++) {
      const drawn = await takeOnce(await createUser(t.database), quizId)
      expect(drawn.filter((id) => gone.includes(id))).toEqual([])
    }
    // Three left and three new: a learner who has seen the three old ones gets the new ones.
    const learner = await createUser(t.database)
    expect(new Set(await takeOnce(learner, quizId))).toEqual(new Set(pool.slice(3)))
    const added = await bankQuestions('botany', 3)
    expect(new Set(await takeOnce(learner, quizId))).toEqual(new Set(added))
  })

  it('gives every learner of a frozen paper the same questions', async () => {
    await bankQuestions('geography', 20)
    const { quizId } = await drawQuiz({
      draw_mode: 'frozen',
      sections: [{ items: [{ draw: { topic: 'geography', count: 5 } }] }],
    })
    const first = await takeOnce(await createUser(t.database), quizId)
    const second = await takeOnce(await createUser(t.database), quizId)
    expect(second).toEqual(first)
  })

  it('freezes a paper on demand, redraws it until an attempt finishes, then refuses with 409', async () => {
    await bankQuestions('economy', 30)
    const { quizId, headers } = await drawQuiz({ sections: [{ items: [{ draw: { topic: 'economy', count: 10 } }] }] })
    const admin = (action: string) =>
      t.app.inject({ method: 'POST', url: `/api/admin/quizzes/${quizId}/${action}/`, headers })
    const frozen = await admin('freeze')
    expect(frozen.statusCode, frozen.body).toBe(200)
    expect(frozen.json().draw_mode).toBe('frozen')
    const stored = async () =>
      JSON.parse(
        (await t.db.selectFrom('quizzes').select('frozen_draw').where('id', '=', quizId).executeTakeFirstOrThrow())
          .frozen_draw!,
      ) as Record<string, number[]>
    const drawn = Object.values(await stored()).flat()
    expect(drawn).toHaveLength(10)
    // The admin quiz lists the drawn questions under their draw, in the draw's order.
    const listed = frozen.json().sections[0].items[0].drawn as { id: number; text: { en: string }; topic: string }[]
    expect(listed.map((question) => question.id)).toEqual(drawn)
    expect(listed[0]).toEqual({
      id: drawn[0],
      text: { en: expect.stringMatching(/^economy/), ne: expect.any(String), html: null },
      topic: 'economy',
    })
    const learner = await createUser(t.database)
    const started = await call(learner, 'GET', `/api/quizzes/${quizId}/`)
    expect(new Set(started.body.questions.map((q: { id: number }) => q.id))).toEqual(new Set(drawn))
    // Redrawn while nobody has finished: later starts take the new draw (30 questions: 10 of them at random).
    const redrawn = await admin('redraw')
    expect(redrawn.statusCode).toBe(200)
    const again = Object.values(await stored()).flat()
    expect(again).toHaveLength(10)
    expect(redrawn.json().sections[0].items[0].drawn.map((question: { id: number }) => question.id)).toEqual(again)
    // A drawn question deleted since: the paper warns at its draw (a start would be refused).
    await t.db.updateTable('questions').set({ deleted_at: t.clock.now() }).where('id', '=', again[0]!).execute()
    const warned = await t.app.inject({ method: 'GET', url: `/api/admin/quizzes/${quizId}/`, headers })
    expect(warned.json().warnings).toEqual([
      { path: 'sections.0.items.0.draw', message: bankMessages.frozenQuestionDeleted },
    ])
    const late = await createUser(t.database)
    expect((await call(late, 'GET', `/api/quizzes/${quizId}/`)).body.code).toBe('paper_unavailable')
    expect((await admin('redraw')).json().warnings).toEqual([])
    await call(learner, 'POST', `/api/quizzes/${quizId}/submit/`, { answers: {} })
    const refused = await admin('redraw')
    expect(refused.statusCode).toBe(409)
    expect(refused.json()).toMatchObject({ code: 'conflict', detail: bankMessages.redrawRefused })
  })

  it('keeps fixed questions and draws apart, and refuses a start with 409 paper_unavailable once the pool shrank', async () => {
    const pool = await bankQuestions('civics', 4)
    const [fixed] = await bankQuestions('civics-fixed', 1)
    const { quizId, headers } = await drawQuiz({
      sections: [
        { title: { en: 'Fixed' }, items: [{ question_id: fixed }] },
        { title: { en: 'Drawn' }, marks_correct: 2, items: [{ draw: { topic: 'civics', count: 4 } }] },
      ],
    })
    const user = await createUser(t.database)
    const started = await call(user, 'GET', `/api/quizzes/${quizId}/`)
    expect(started.body.question_count).toBe(5)
    expect(started.body.questions[0].id).toBe(fixed)
    expect(new Set(started.body.questions.slice(1).map((q: { id: number }) => q.id))).toEqual(new Set(pool))
    await call(user, 'POST', `/api/quizzes/${quizId}/submit/`, { answers: {} })

    // A pooled question leaves the bank: the admin quiz warns, and a new start is refused with nothing stored.
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/admin/bank/questions/${pool[0]}/`, headers })).statusCode,
    ).toBe(204)
    const detail = (await t.app.inject({ method: 'GET', url: `/api/admin/quizzes/${quizId}/`, headers })).json()
    expect(detail.warnings).toEqual([{ path: 'sections.1.items.0.draw', message: expect.stringContaining('only 3') }])
    expect(detail.sections[1].items[0]).toMatchObject({ draw: { topic: 'civics', count: 4 }, pool: 3 })
    const refused = await call(user, 'GET', `/api/quizzes/${quizId}/`)
    expect(refused.status).toBe(409)
    expect(refused.body.code).toBe('paper_unavailable')
    expect(await t.db.selectFrom('attempts').select('id').where('quiz_id', '=', quizId).execute()).toHaveLength(1)
  })
})
