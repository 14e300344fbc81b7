import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { questionBody } from '../../test/fixtures/admin.fixtures'

// Migration 0007: every quiz keeps the count of its live questions. The test drives each write that changes it
// through the real API and database, and after each one compares the stored count with a count of the rows.
describe.each(dialects)('the question count kept on each quiz, on %s', (dialect) => {
  const t = useTestApp(dialect)

  /** [stored, counted] for every quiz, deleted ones too. */
  async function countsByQuiz() {
    const { rows } = await sql<{ id: number; stored: number; counted: number }>`
      select q.id, q.question_count as stored,
        (select count(*) from paper_items i join questions s on s.id = i.question_id
         where i.quiz_id = q.id and s.deleted_at is null and s.revision_id is not null) as counted
      from quizzes q order by q.id`.execute(t.db)
    return Object.fromEntries(rows.map((row) => [row.id, [Number(row.stored), Number(row.counted)]]))
  }

  /** The quiz's question_set_version: what a process's cached list of current questions is checked against. */
  async function version(quizId: number) {
    const row = await t.db
      .selectFrom('quizzes')
      .select('question_set_version')
      .where('id', '=', quizId)
      .executeTakeFirstOrThrow()
    return Number(row.question_set_version)
  }

  /** Runs `write` and says whether the quiz's question set version rose. */
  async function raisesVersion(quizId: number, write: () => Promise<unknown>) {
    const before = await version(quizId)
    await write()
    return (await version(quizId)) > before
  }

  async function expectCounts(expected: Record<number, number>) {
    const counts = await countsByQuiz()
    for (const [id, [stored, counted]] of Object.entries(counts)) expect(stored, `quiz ${id}`).toBe(counted)
    expect(Object.fromEntries(Object.entries(counts).map(([id, [stored]]) => [id, stored]))).toEqual(expected)
  }

  it('stays right through create-from-JSON, adding, editing, deleting and restoring questions', async () => {
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const send = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
      const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
      expect(response.statusCode, response.body).toBeLessThan(300)
      return response.body ? response.json() : undefined
    }
    const createQuiz = async (questions: number) =>
      (
        await send('POST', '/api/quizzes/create-from-json/', {
          title: { en: 'Counted', ne: 'गनिएको' },
          questions: Array.from({ length: questions }, () => questionBody()),
        })
      ).quiz_id as number

    const first = await createQuiz(3)
    const second = await createQuiz(5)
    await expectCounts({ [first]: 3, [second]: 5 })

    let added = 0
    expect(
      await raisesVersion(first, async () => {
        added = (await send('POST', `/api/admin/quizzes/${first}/questions/`, questionBody())).id as number
      }),
    ).toBe(true)
    await expectCounts({ [first]: 4, [second]: 5 })

    // An edit is a new revision of a live question: the count stays, the set of current revisions changes.
    expect(
      await raisesVersion(first, () =>
        send('PUT', `/api/admin/quizzes/${first}/questions/${added}/`, questionBody({ topic: 'edited' })),
      ),
    ).toBe(true)
    await expectCounts({ [first]: 4, [second]: 5 })

    expect(await raisesVersion(first, () => send('DELETE', `/api/admin/quizzes/${first}/questions/${added}/`))).toBe(
      true,
    )
    await expectCounts({ [first]: 3, [second]: 5 })
    // A write that changes nothing changes neither figure.
    expect(
      await raisesVersion(first, () =>
        t.db
          .updateTable('paper_items')
          .set({ position: sql`position` })
          .where('quiz_id', '=', first)
          .execute(),
      ),
    ).toBe(false)

    // A refused write changes nothing: deleting it again is a 404, adding to a missing quiz too.
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/admin/quizzes/${first}/questions/${added}/`, headers }))
        .statusCode,
    ).toBe(404)
    await expectCounts({ [first]: 3, [second]: 5 })

    // Deleting a quiz's question leaves it in the bank (API.md "Question bank"): adding it back by id counts it again.
    expect(
      await raisesVersion(first, () => send('POST', `/api/admin/quizzes/${first}/questions/`, { question_id: added })),
    ).toBe(true)
    await expectCounts({ [first]: 4, [second]: 5 })
    // An operator moving an item by hand still gets the counts right.
    await t.db.updateTable('paper_items').set({ quiz_id: second }).where('question_id', '=', added).execute()
    await expectCounts({ [first]: 3, [second]: 6 })
    // A bank question deleted by hand leaves every paper's count.
    await t.db.updateTable('questions').set({ deleted_at: t.clock.now() }).where('id', '=', added).execute()
    await expectCounts({ [first]: 3, [second]: 5 })
    await t.db.updateTable('questions').set({ deleted_at: null }).where('id', '=', added).execute()
    await expectCounts({ [first]: 3, [second]: 6 })
    // Without a current revision a question is not live either.
    await t.db.updateTable('questions').set({ revision_id: null }).where('id', '=', added).execute()
    await expectCounts({ [first]: 3, [second]: 5 })

    // A deleted quiz keeps its count; the learner's and the admin's lists show the stored one.
    await send('DELETE', `/api/admin/quizzes/${second}/`)
    await expectCounts({ [first]: 3, [second]: 5 })
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/quizzes/', headers })
    expect(list.json().map((quiz: { id: number; question_count: number }) => [quiz.id, quiz.question_count])).toEqual([
      [first, 3],
    ])
  })
})
