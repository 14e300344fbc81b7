import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { typedPaper } from '../../test/fixtures/question-types.fixtures'

// API.md "Question types": key challenges propose another right set (multiple) or value (numeric).

describe.each(dialects)('flags on multiple and numeric questions on %s', (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsAs(t)

  async function sat() {
    const paper = await typedPaper(t, as)
    const learner = await createUser(t.database)
    const submitted = await as(learner, 'POST', `/api/quizzes/${paper.quizId}/submit/`, { answers: {} })
    expect(submitted.status, submitted.raw).toBe(200)
    const flag = (body: object) => as(learner, 'POST', `/api/results/${submitted.body.attempt_id}/flags/`, body)
    return { ...paper, learner, attemptId: submitted.body.attempt_id as number, flag }
  }

  it('stores a proposed set and value, returns them in the flag, and counts them in the queue', async () => {
    const s = await sat()
    const set = await s.flag({
      question_id: s.multipleId,
      reason: 'wrong_key',
      proposed_option_ids: [s.optionId('5'), s.optionId('2'), s.optionId('5')],
    })
    expect(set.status, set.raw).toBe(201)
    const ids = [s.optionId('2'), s.optionId('5')].sort((a, b) => a - b)
    expect(set.body).toMatchObject({ proposed_option_id: null, proposed_option_ids: ids, proposed_value: null })
    const value = await s.flag({ question_id: s.numericId, reason: 'wrong_key', proposed_value: ' ३.५0 ' })
    expect(value.status, value.raw).toBe(201)
    expect(value.body).toMatchObject({ proposed_option_ids: null, proposed_value: '3.5' })

    const admin = await createUser(t.database, { is_admin: 1 })
    const queue = await as(admin, 'GET', '/api/admin/flags/')
    expect(queue.status, queue.raw).toBe(200)
    const proposedOf = (id: number) =>
      queue.body.results.find((entry: { question: { id: number } }) => entry.question.id === id).flags.proposed
    expect(proposedOf(s.multipleId)).toEqual({ [ids.join(',')]: 1 })
    expect(proposedOf(s.numericId)).toEqual({ '3.5': 1 })
  })

  it('refuses an option not of the question at its path, a malformed value, and proposals of the wrong type', async () => {
    const s = await sat()
    const foreign = await s.flag({
      question_id: s.multipleId,
      reason: 'wrong_key',
      proposed_option_ids: [s.optionId('2'), s.right],
    })
    expect(foreign.status).toBe(400)
    expect(foreign.body.errors).toHaveProperty(['proposed_option_ids.1'])
    const malformed = await s.flag({ question_id: s.numericId, reason: 'wrong_key', proposed_value: '3.1.4' })
    expect(malformed.status).toBe(400)
    expect(malformed.body.code).toBe('invalid_number')
    expect(malformed.body.errors).toHaveProperty('proposed_value')
    const setOnNumeric = await s.flag({ question_id: s.numericId, reason: 'wrong_key', proposed_option_ids: [s.right] })
    expect(setOnNumeric.status).toBe(400)
    expect(setOnNumeric.body.errors).toHaveProperty('proposed_option_ids')
    const valueOnChoice = await s.flag({ question_id: s.choiceId, reason: 'wrong_key', proposed_value: '3' })
    expect(valueOnChoice.status).toBe(400)
    expect(valueOnChoice.body.errors).toHaveProperty('proposed_value')
    expect(await t.db.selectFrom('flags').selectAll().execute()).toHaveLength(0)
  })

  it('refuses accept_several on a numeric question, changing nothing', async () => {
    const s = await sat()
    const admin = await createUser(t.database, { is_admin: 1 })
    const revision = (
      await t.db.selectFrom('questions').select('revision_id').where('id', '=', s.numericId).executeTakeFirstOrThrow()
    ).revision_id!
    const refused = await as(admin, 'POST', `/api/admin/questions/${s.numericId}/key/`, {
      revision_id: revision,
      action: 'accept_several',
      correct_option_ids: [s.right, s.optionId('2')],
      note: 'Both.',
      dry_run: false,
    })
    expect(refused.status).toBe(400)
    expect(refused.body.errors).toHaveProperty('action')
    expect(await t.db.selectFrom('key_versions').selectAll().execute()).toHaveLength(0)
  })
})
