import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { openQuiz, storedTally } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { countInTally, findTallyStanding, recountRankTally } from './outcomes.repository'
import { insertAttempt, rankMovesOf, rescore } from './outcomes.service'

// Callers name only the attempt and what its marks gained (docs/decisions/062): whether the attempt counts, and the
// score it moves from, outcomes reads for itself.
describe.each(dialects)('re-scoring on %s', (dialect) => {
  const t = useTestApp(dialect)

  /** Ann's attempts 1 (3.00) and 2 (5.00), Bea's 1 (4.00), and Cal's 1 (9.00) with a written part pending. */
  async function seeded() {
    const { quiz } = await openQuiz(t)
    const [ann, bea, cal] = [await createUser(t.database), await createUser(t.database), await createUser(t.database)]
    const finished = (userId: number, attemptNumber: number, score: number, pending = 0) =>
      insertAttempt(t.db, {
        user_id: userId,
        quiz_id: quiz.id,
        attempt_number: attemptNumber,
        status: 'finished',
        started_at: t.clock.now(),
        deadline: t.clock.now() + 60_000,
        finished_at: t.clock.now(),
        revision_ids: '[]',
        score_hundredths: score,
        correct: 0,
        incorrect: 0,
        unanswered: 0,
        marks_pending: pending,
      })
    const attempts = {
      annFirst: await finished(ann.id, 1, 300),
      annSecond: await finished(ann.id, 2, 500),
      beaFirst: await finished(bea.id, 1, 400),
      calPending: await finished(cal.id, 1, 900, 1),
    }
    await recountRankTally(t.db, quiz.id)
    const score = async (attemptId: number) =>
      (
        await t.db
          .selectFrom('attempts')
          .select('score_hundredths')
          .where('id', '=', attemptId)
          .executeTakeFirstOrThrow()
      ).score_hundredths
    return { quiz, ann, bea, attempts, score }
  }

  it('moves a second attempt without touching the tally or any rank', async () => {
    const { quiz, attempts, score } = await seeded()
    const change = { attemptId: attempts.annSecond.id, delta: { score_hundredths: 400 } }
    expect(await rankMovesOf(t.db, [change])).toEqual([])
    const moved = await t.database.transaction((trx) => rescore(trx, [change]))
    expect(moved).toEqual([expect.objectContaining({ id: attempts.annSecond.id, before: 500, after: 900 })])
    expect(await score(attempts.annSecond.id)).toBe(900)
    expect(await storedTally(t.db, quiz.id)).toEqual([
      { score_hundredths: 300, learners: 1 },
      { score_hundredths: 400, learners: 1 },
    ])
  })

  it('moves the counted first attempt in the tally, and its preview shows the ranks it changes', async () => {
    const { quiz, ann, bea, attempts, score } = await seeded()
    const change = { attemptId: attempts.annFirst.id, delta: { score_hundredths: 200 } }
    expect(await rankMovesOf(t.db, [change])).toEqual([
      { user_id: ann.id, quiz_id: quiz.id, old_rank: 2, new_rank: 1 },
      { user_id: bea.id, quiz_id: quiz.id, old_rank: 1, new_rank: 2 },
    ])
    await t.database.transaction((trx) => rescore(trx, [change]))
    expect(await score(attempts.annFirst.id)).toBe(500)
    expect(await storedTally(t.db, quiz.id)).toEqual([
      { score_hundredths: 400, learners: 1 },
      { score_hundredths: 500, learners: 1 },
    ])
  })

  it('leaves the tally alone for an attempt whose marks are pending', async () => {
    const { quiz, attempts, score } = await seeded()
    await t.database.transaction((trx) =>
      rescore(trx, [{ attemptId: attempts.calPending.id, delta: { score_hundredths: -800 } }]),
    )
    expect(await score(attempts.calPending.id)).toBe(100)
    expect(await storedTally(t.db, quiz.id)).toEqual([
      { score_hundredths: 300, learners: 1 },
      { score_hundredths: 400, learners: 1 },
    ])
  })

  it('moves an attempt named twice once, by the sum of its changes', async () => {
    const { quiz, attempts, score } = await seeded()
    const moved = await t.database.transaction((trx) =>
      rescore(trx, [
        { attemptId: attempts.annFirst.id, delta: { score_hundredths: 150 } },
        { attemptId: attempts.annFirst.id, delta: { score_hundredths: 150 } },
      ]),
    )
    expect(moved).toEqual([expect.objectContaining({ before: 300, after: 600 })])
    expect(await score(attempts.annFirst.id)).toBe(600)
    expect(await storedTally(t.db, quiz.id)).toEqual([
      { score_hundredths: 400, learners: 1 },
      { score_hundredths: 600, learners: 1 },
    ])
  })

  // Decision 138: a score's learners are counted in several rows, so that finishes with one score do not queue on one
  // row's lock; a re-score takes a learner out of a score whichever rows counted it.
  it('moves learners counted in several rows of a score, and removes a score left with none', async () => {
    const { quiz } = await openQuiz(t)
    const firsts: number[] = []
    for (let i = 0; i < 10; i++) {
      const learner = await createUser(t.database)
      const attempt = await insertAttempt(t.db, {
        user_id: learner.id,
        quiz_id: quiz.id,
        attempt_number: 1,
        status: 'finished',
        started_at: t.clock.now(),
        deadline: t.clock.now() + 60_000,
        finished_at: t.clock.now(),
        revision_ids: '[]',
        score_hundredths: 300,
        correct: 0,
        incorrect: 0,
        unanswered: 0,
      })
      expect(await countInTally(t.db, attempt.id)).toBe(true)
      firsts.push(attempt.id)
    }
    const rowsOf = (score: number) =>
      t.db
        .selectFrom('first_attempt_scores')
        .select(['shard', 'learners'])
        .where('quiz_id', '=', quiz.id)
        .where('score_hundredths', '=', score)
        .execute()
    // Ten attempts with consecutive ids fall in eight rows.
    expect(await rowsOf(300)).toHaveLength(8)
    expect(await storedTally(t.db, quiz.id)).toEqual([{ score_hundredths: 300, learners: 10 }])

    await t.database.transaction((trx) =>
      rescore(
        trx,
        firsts.slice(0, 3).map((attemptId) => ({ attemptId, delta: { score_hundredths: 200 } })),
      ),
    )
    expect(await storedTally(t.db, quiz.id)).toEqual([
      { score_hundredths: 300, learners: 7 },
      { score_hundredths: 500, learners: 3 },
    ])
    expect(await findTallyStanding(t.db, quiz.id, 300)).toEqual({
      participants: 10,
      above: 3,
      below: 0,
      sumHundredths: 7 * 300 + 3 * 500,
      highestHundredths: 500,
    })

    await t.database.transaction((trx) =>
      rescore(
        trx,
        firsts.slice(3).map((attemptId) => ({ attemptId, delta: { score_hundredths: -100 } })),
      ),
    )
    expect(await storedTally(t.db, quiz.id)).toEqual([
      { score_hundredths: 200, learners: 7 },
      { score_hundredths: 500, learners: 3 },
    ])
    // No row of the emptied score is left, not even one counting fewer than none against the others.
    expect(await rowsOf(300)).toEqual([])
    expect((await findTallyStanding(t.db, quiz.id, 200)).highestHundredths).toBe(500)
  })
})
