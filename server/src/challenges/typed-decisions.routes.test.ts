import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { typedPaper } from '../../test/fixtures/question-types.fixtures'

// API.md "Question types": a key decision gives a multiple question's right set or a numeric question's value or
// range, and every finished attempt is re-scored by its type's marker under its section's marking (JEE Advanced's
// 4 / -2 / +1 a right option here; a numeric section losing nothing for a wrong number).

describe.each(dialects)('key decisions on multiple and numeric questions on %s', (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsAs(t)

  /** Three learners: a partly right set and the right number; the right set and a wrong number; a wrong set. */
  async function sat() {
    const paper = await typedPaper(t, as)
    const [two, five, nine] = ['2', '5', '9'].map(paper.optionId) as [number, number, number]
    const answers = [
      { [paper.multipleId]: [two], [paper.numericId]: '3.14' },
      { [paper.multipleId]: [two, five], [paper.numericId]: '3.5' },
      { [paper.multipleId]: [two, nine] },
    ]
    const learners = []
    for (const answer of answers) {
      const learner = await createUser(t.database)
      const submitted = await as(learner, 'POST', `/api/quizzes/${paper.quizId}/submit/`, { answers: answer })
      expect(submitted.status, submitted.raw).toBe(200)
      learners.push({ learner, attemptId: submitted.body.attempt_id as number })
    }
    const scores = async () =>
      (
        await t.db
          .selectFrom('attempts')
          .select(['score_hundredths', 'correct', 'incorrect', 'unanswered'])
          .where('quiz_id', '=', paper.quizId)
          .orderBy('id')
          .execute()
      ).map((row) => [row.score_hundredths, row.correct, row.incorrect, row.unanswered])
    const decide = (questionId: number, body: object) =>
      as(paper.admin, 'POST', `/api/admin/questions/${questionId}/key/`, body)
    return { ...paper, two, five, nine, learners, scores, decide }
  }

  it("changes a multiple question's right set: partial marks move by their real amounts, once", async () => {
    const s = await sat()
    // +1 (one right of two) +3; +4 +0 (a wrong number loses nothing); -2 and the number unanswered.
    expect(await s.scores()).toEqual([
      [400, 1, 1, 1],
      [400, 1, 1, 1],
      [-200, 0, 1, 2],
    ])
    const body = { revision_id: s.multipleRevision, action: 'change', correct_option_ids: [s.two], note: 'Only 2.' }
    const dry = await s.decide(s.multipleId, { ...body, dry_run: true })
    expect(dry.status, dry.raw).toBe(200)
    // Only 2 is right now: [2] gains full marks (+1 -> +4), [2, 5] chose a wrong option (+4 -> -2), [2, 9] stays -2.
    expect(dry.body).toMatchObject({ attempts_affected: 2, learners_affected: 2 })
    expect(
      dry.body.score_changes.map((c: { old_score: number; new_score: number }) => [c.old_score, c.new_score]),
    ).toEqual([
      [4, -2],
      [4, 7],
    ])
    expect(await t.db.selectFrom('key_versions').selectAll().execute()).toEqual([])

    const commit = await s.decide(s.multipleId, { ...body, dry_run: false })
    expect(commit.status, commit.raw).toBe(200)
    expect(commit.body).toMatchObject({ attempts_affected: 2, key_version: 1 })
    expect(await s.scores()).toEqual([
      [700, 2, 0, 1],
      [-200, 0, 2, 1],
      [-200, 0, 1, 2],
    ])
    const card = (await as(s.learners[0]!.learner, 'GET', `/api/results/${s.learners[0]!.attemptId}/`)).body
    const entry = card.answers.find((answer: { question: number }) => answer.question === s.multipleId)
    expect(entry.regrade).toMatchObject({ old_marks: 1, new_marks: 4, note: 'Only 2.' })
    // The same decision again changes nothing.
    const again = await s.decide(s.multipleId, { ...body, dry_run: false })
    expect(again.body).toMatchObject({ attempts_affected: 0, score_changes: [], key_version: 1 })
    expect(await s.scores()).toEqual([
      [700, 2, 0, 1],
      [-200, 0, 2, 1],
      [-200, 0, 1, 2],
    ])
  })

  it("changes a numeric question's value to a range and scores the typed numbers against it", async () => {
    const s = await sat()
    const body = { revision_id: s.numericRevision, action: 'change', answer: { min: 3.4, max: 3.6 }, note: 'A range.' }
    const commit = await s.decide(s.numericId, { ...body, dry_run: false })
    expect(commit.status, commit.raw).toBe(200)
    // 3.14 is now wrong (+3 -> 0, no loss in this section); 3.5 now right (0 -> +3); the blank stays 0.
    expect(await s.scores()).toEqual([
      [100, 0, 2, 1],
      [700, 2, 0, 1],
      [-200, 0, 1, 2],
    ])
    const [version] = await t.db.selectFrom('key_versions').select(['numeric_answer', 'action']).execute()
    expect(version).toEqual({ numeric_answer: JSON.stringify({ min: 3.4, max: 3.6 }), action: 'change' })
    // A learner starting after the decision is scored on it too.
    const late = await createUser(t.database)
    const submitted = await as(late, 'POST', `/api/quizzes/${s.quizId}/submit/`, { answers: { [s.numericId]: '3.6' } })
    expect(submitted.status, submitted.raw).toBe(200)
    expect(submitted.body.score).toBe(3)
    const again = await s.decide(s.numericId, { ...body, dry_run: true })
    expect(again.body).toMatchObject({ attempts_affected: 0, score_changes: [] })
  })

  it('refuses a numeric change without a valid answer, options for it, and an answer for another type', async () => {
    const s = await sat()
    const numeric = { revision_id: s.numericRevision, action: 'change', note: 'x', dry_run: false }
    const refusals: [number, object, string][] = [
      [s.numericId, numeric, 'answer'],
      [s.numericId, { ...numeric, answer: { min: 5, max: 1 } }, 'answer.max'],
      [s.numericId, { ...numeric, answer: { value: 3, tolerance: -1 } }, 'answer.tolerance'],
      [s.numericId, { ...numeric, answer: { value: 3 }, correct_option_ids: [s.two] }, 'correct_option_ids'],
      [
        s.multipleId,
        { revision_id: s.multipleRevision, action: 'change', answer: { value: 3 }, note: 'x', dry_run: false },
        'answer',
      ],
      [
        s.choiceId,
        {
          revision_id: (
            await t.db
              .selectFrom('questions')
              .select('revision_id')
              .where('id', '=', s.choiceId)
              .executeTakeFirstOrThrow()
          ).revision_id,
          action: 'change',
          correct_option_ids: [s.right, s.wrong],
          note: 'x',
          dry_run: false,
        },
        'correct_option_ids',
      ],
    ]
    for (const [questionId, body, field] of refusals) {
      const refused = await s.decide(questionId, body)
      expect(refused.status, JSON.stringify(body)).toBe(400)
      expect(refused.body.errors, JSON.stringify(body)).toHaveProperty([field])
    }
    expect(await t.db.selectFrom('key_versions').selectAll().execute()).toEqual([])
    expect(await t.db.selectFrom('regrades').selectAll().execute()).toEqual([])
  })

  it('drops a multiple question with full marks for those who answered it, typed answers counting as answered', async () => {
    const s = await sat()
    const commit = await s.decide(s.multipleId, {
      revision_id: s.multipleRevision,
      action: 'drop',
      drop_policy: 'full_marks_answered',
      note: 'Misprint.',
      dry_run: false,
    })
    expect(commit.status, commit.raw).toBe(200)
    // Every learner answered it: +1 -> +4, +4 stays, -2 -> +4.
    expect(await s.scores()).toEqual([
      [700, 2, 0, 1],
      [400, 1, 1, 1],
      [400, 1, 0, 2],
    ])
  })

  it("gives a multiple question's facility in the queue as the mean share of full marks gained", async () => {
    const s = await sat()
    const flagged = await as(s.learners[0]!.learner, 'POST', `/api/results/${s.learners[0]!.attemptId}/flags/`, {
      question_id: s.multipleId,
      reason: 'wrong_key',
      proposed_option_ids: [s.two],
    })
    expect(flagged.status, flagged.raw).toBe(201)
    const queue = await as(s.admin, 'GET', '/api/admin/flags/')
    const entry = queue.body.results.find((item: { question: { id: number } }) => item.question.id === s.multipleId)
    // (1/4 + 4/4 - 2/4) / 3
    expect(entry.facility).toBe(0.25)
  })
})
