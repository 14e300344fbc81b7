import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createQuiz, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'

const QUESTIONS = 30

/** True when every revision's option ids increase with the authored position. */
async function idsFollowAuthoredOrder(db: ReturnType<typeof useTestApp>['db']) {
  const options = await db
    .selectFrom('question_options')
    .select(['revision_id', 'id'])
    .orderBy('revision_id')
    .orderBy('position')
    .execute()
  const byRevision = new Map<number, number[]>()
  for (const { revision_id, id } of options) byRevision.set(revision_id, [...(byRevision.get(revision_id) ?? []), id])
  return [...byRevision.values()].every((ids) => ids.every((id, i) => i === 0 || id > ids[i - 1]!))
}

// With shuffle_options the learner sees options in an order of their own but with their ids: ids given in authored
// order would give the key away to anyone sorting them. Thirty questions all in authored order by chance: 1 in 24^30.
describe.each(dialects)('option ids on %s', (dialect) => {
  const t = useTestApp(dialect)

  it('are given in an order apart from the authored one, for a question added alone', async () => {
    await createQuiz(t.database, {}, { questionCount: QUESTIONS })
    expect(await idsFollowAuthoredOrder(t.db)).toBe(false)
  })

  it('are given in an order apart from the authored one, for a quiz created from JSON', async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/quizzes/create-from-json/',
      headers: await bearerFor(t.tokens, admin),
      payload: {
        title: { en: 'Key in the ids?' },
        start_time: '2026-01-01T00:00:00Z',
        duration_minutes: 10,
        questions: Array.from({ length: QUESTIONS }, (_, n) => ({
          text: { en: `Question ${n + 1}` },
          options: ['A', 'B', 'C', 'D'].map((letter, i) => ({ text: { en: letter }, is_correct: i === 0 })),
        })),
      },
    })
    expect(response.statusCode).toBe(201)
    expect(await idsFollowAuthoredOrder(t.db)).toBe(false)
    // The admin still sees the options in authored order, the right one first.
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/admin/quizzes/${response.json().quiz_id}/`,
      headers: await bearerFor(t.tokens, admin),
    })
    const questions = detail.json().questions as { options: { text: { en: string }; is_correct: boolean }[] }[]
    for (const question of questions) {
      expect(question.options.map((o) => o.text.en)).toEqual(['A', 'B', 'C', 'D'])
      expect(question.options[0]!.is_correct).toBe(true)
    }
  })
})
