import { describe, expect, it } from 'vitest'
import type { UserRow } from '../db/schema'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { openQuiz, requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { median } from './time-vs-top'

const MINUTE = 60_000

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([5])).toBe(5)
    expect(median([30, 10, 20])).toBe(20)
    expect(median([50, 30])).toBe(40)
  })
})

describe.each(dialects)('time_vs_top on the report card on %s', (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)

  it('is null under 10 ranked attempts, then the median seconds of the top 10 % by score', async () => {
    const quiz = await openQuiz(t, {}, { questionCount: 2 })
    const [q1, q2] = quiz.questionIds as [number, number]
    const attempts: { user: UserRow; attempt: number }[] = []
    /** The learner answers both right (`top`) or both wrong, having spent these seconds on each question. */
    async function take(top: boolean, seconds: [number, number]) {
      const user = await createUser(t.database)
      expect((await call(user, 'GET', `/api/quizzes/${quiz.quiz.id}/`)).status).toBe(200)
      t.clock.advance(5 * MINUTE)
      const picks = top ? quiz.correctOptionIds : quiz.wrongOptionIds
      const submitted = await call(user, 'POST', `/api/quizzes/${quiz.quiz.id}/submit/`, {
        answers: { [q1]: picks[0], [q2]: picks[1] },
        time_spent: { [q1]: seconds[0], [q2]: seconds[1] },
      })
      expect(submitted.status).toBe(200)
      attempts.push({ user, attempt: submitted.body.attempt_id })
    }
    const timeVsTop = async (index: number) => {
      const { user, attempt } = attempts[index]!
      return (await call(user, 'GET', `/api/results/${attempt}/`)).body.time_vs_top
    }

    await take(true, [30, 10])
    for (let i = 0; i < 8; i++) await take(false, [100, 100])
    expect(await timeVsTop(0)).toEqual([
      { question_id: q1, seconds: 30, top_seconds: null },
      { question_id: q2, seconds: 10, top_seconds: null },
    ])
    // The 10th ranked attempt: the top 10 % is the one best attempt.
    await take(false, [100, 100])
    expect(await timeVsTop(9)).toEqual([
      { question_id: q1, seconds: 100, top_seconds: 30 },
      { question_id: q2, seconds: 100, top_seconds: 10 },
    ])
    // Twenty: the top two, their median the mean of the two; a second attempt counts for nothing.
    await take(true, [50, 20])
    for (let i = 0; i < 9; i++) await take(false, [100, 100])
    expect(await timeVsTop(0)).toEqual([
      { question_id: q1, seconds: 30, top_seconds: 40 },
      { question_id: q2, seconds: 10, top_seconds: 15 },
    ])
    // Kept per quiz until its tally moves: the 21st ranked attempt makes the top three (ceil of 2.1), a wrong one with
    // 100 seconds among them, and the next report card has it.
    await take(false, [100, 100])
    expect(await timeVsTop(0)).toEqual([
      { question_id: q1, seconds: 30, top_seconds: 50 },
      { question_id: q2, seconds: 10, top_seconds: 20 },
    ])
  })
})
