import { liveMessages, messages } from '@quiz/contracts'
import type { Insertable } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { QuizTable, UserRow } from '../db/schema'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { insertSitting, recordPaperAttempt, withLifecycle, type PaperSitting } from '../../test/fixtures/paper-attempts'
import { openQuiz, requestsAs, storedAttempts, storedOptionIds, storedTally } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'

const MINUTE = 60_000
const GRACE = 120_000
const iso = (ms: number) => new Date(ms).toISOString()

// API.md "Paper sittings", "Paper attempts": an answer sheet recorded as an attempt of mode 'paper' counts beside
// online attempts everywhere, and never uses up an online one (docs/decisions/056).
describe.each(dialects)('paper attempts on %s', (dialect) => {
  const app = withLifecycle()
  const t = useTestApp(dialect, {}, app)
  const call = requestsAs(t)

  /** Three questions, options A (right) B C D, a sitting held half an hour ago; answers by letter, '-' blank. */
  async function setUp(overrides: Partial<Insertable<QuizTable>> = {}, heldAt = t.clock.now() - 30 * MINUTE) {
    const admin = await createUser(t.database, { is_admin: 1 })
    const made = await openQuiz(t, overrides, { questionCount: 3 })
    const id = made.quiz.id
    const options = await Promise.all(made.questionIds.map((questionId) => storedOptionIds(t.db, questionId)))
    const answers = (pattern: string) =>
      Object.fromEntries(
        made.questionIds.map((questionId, i) => [
          questionId,
          pattern[i] === '-' ? null : options[i]!['ABCD'.indexOf(pattern[i]!)]!,
        ]),
      )
    const sitting = await insertSitting(t, id, heldAt)
    const onPaper = (learner: UserRow, pattern: string, at: PaperSitting = sitting) =>
      recordPaperAttempt(app.kept.lifecycle, at, {
        userId: learner.id,
        quizId: id,
        answers: answers(pattern),
        now: t.clock.now(),
      })
    const submit = (learner: UserRow, pattern: string) =>
      call(learner, 'POST', `/api/quizzes/${id}/submit/`, { answers: answers(pattern) })
    const online = async (learner: UserRow, pattern: string) => {
      const submitted = await submit(learner, pattern)
      expect(submitted.status).toBe(200)
      return submitted.body.attempt_id as number
    }
    const report = async (learner: UserRow, attemptId: number) => {
      const card = await call(learner, 'GET', `/api/results/${attemptId}/`)
      expect(card.status).toBe(200)
      return card.body
    }
    const listed = async (learner: UserRow) =>
      ((await call(learner, 'GET', '/api/quizzes/')).body as { id: number }[]).find((quiz) => quiz.id === id)
    return { ...made, id, admin, options, answers, sitting, onPaper, submit, online, report, listed }
  }

  const tally = (quizId: number) => storedTally(t.db, quizId)
  const modes = async (userId: number, quizId: number) =>
    (await storedAttempts(t.db, userId, quizId)).map((row) => [row.attempt_number, row.mode, row.ranked])

  describe('the online attempt limit', () => {
    it('uses up no online attempt, blocks no start, and is recorded with none left; numbers stay unique', async () => {
      const s = await setUp({ allowed_attempts: 1 })
      const learner = await createUser(t.database)

      const paper = await s.onPaper(learner, 'AAA')
      expect(paper).toMatchObject({ attempt_number: 1, mode: 'paper', sitting_id: s.sitting.id, score_hundredths: 300 })
      expect(await s.listed(learner)).toMatchObject({ remaining_attempts: 1, can_start: true })

      const started = await call(learner, 'GET', `/api/quizzes/${s.id}/`)
      expect(started.status).toBe(200)
      expect(started.body.remaining_attempts).toBe(0)
      expect((await s.submit(learner, 'BBB')).status).toBe(200)

      // No online attempt is left, and a sheet is still recorded: it takes the next number.
      expect((await s.onPaper(learner, 'A-A')).attempt_number).toBe(3)
      const refused = await call(learner, 'GET', `/api/quizzes/${s.id}/`)
      expect(refused.status).toBe(403)
      expect(refused.body).toEqual({ detail: messages.noAttemptsLeft, code: 'no_attempts_left' })
      expect(await s.listed(learner)).toMatchObject({ remaining_attempts: 0, can_start: false })
      expect(await modes(learner.id, s.id)).toEqual([
        [1, 'paper', 1],
        [2, 'online', 1],
        [3, 'paper', 1],
      ])

      const results = await call(learner, 'GET', '/api/results/')
      expect(results.body[0].attempts).toEqual([
        expect.objectContaining({
          attempt_number: 1,
          mode: 'paper',
          score: 3,
          completed_timestamp: iso(s.sitting.heldAt),
        }),
        expect.objectContaining({ attempt_number: 2, mode: 'online', score: -0.6 }),
        expect.objectContaining({ attempt_number: 3, mode: 'paper', score: 2 }),
      ])
    })

    it('answers 404 to a submit that names a paper attempt, and starts nothing', async () => {
      const s = await setUp()
      const learner = await createUser(t.database)
      const paper = await s.onPaper(learner, 'AAA')
      const named = await call(learner, 'POST', `/api/quizzes/${s.id}/submit/`, {
        answers: s.answers('BBB'),
        attempt_id: paper.id,
      })
      expect(named.status).toBe(404)
      expect(named.body).toEqual({ detail: 'Attempt not found.', code: 'not_found' })
      expect(await modes(learner.id, s.id)).toEqual([[1, 'paper', 1]])
    })

    it('lets a submit without an attempt in progress take the number after a paper attempt, once', async () => {
      const s = await setUp({ allowed_attempts: 1 })
      const learner = await createUser(t.database)
      await s.onPaper(learner, '---')

      expect((await s.submit(learner, 'AAA')).status).toBe(200)
      const second = await s.submit(learner, 'AAA')
      expect(second.status).toBe(403)
      expect(second.body.code).toBe('no_attempts_left')
      expect(await modes(learner.id, s.id)).toEqual([
        [1, 'paper', 1],
        [2, 'online', 1],
      ])
    })

    it('keeps numbers unique and the online limit when sheets are recorded among racing submits', async () => {
      const s = await setUp({ allowed_attempts: 2 })
      const learner = await createUser(t.database)
      const outcomes = await Promise.all([
        ...Array.from({ length: 6 }, () => s.submit(learner, 'AAA').then((response) => response.status)),
        s.onPaper(learner, 'A--').then(() => 'paper'),
        s.onPaper(learner, '-A-').then(() => 'paper'),
      ])
      expect(outcomes.filter((outcome) => outcome === 200)).toHaveLength(2)
      expect(outcomes.filter((outcome) => outcome === 403)).toHaveLength(4)
      const attempts = await storedAttempts(t.db, learner.id, s.id)
      expect(attempts.map((attempt) => attempt.attempt_number)).toEqual([1, 2, 3, 4])
      expect(attempts.filter((attempt) => attempt.mode === 'online')).toHaveLength(2)
      expect(attempts.filter((attempt) => attempt.mode === 'paper')).toHaveLength(2)
      expect(attempts.every((attempt) => attempt.status === 'finished')).toBe(true)
      expect(await tally(s.id)).toEqual([{ score_hundredths: attempts[0]!.score_hundredths, learners: 1 }])
    })

    it('lets a first start and a sheet recorded at once both in, with numbers 1 and 2', async () => {
      const s = await setUp()
      const learners = [await createUser(t.database), await createUser(t.database), await createUser(t.database)]
      const outcomes = await Promise.all(
        learners.flatMap((learner) => [
          call(learner, 'GET', `/api/quizzes/${s.id}/`).then((response) => response.status),
          s.onPaper(learner, 'AAA').then((attempt) => attempt.mode),
        ]),
      )
      expect(outcomes).toEqual([200, 'paper', 200, 'paper', 200, 'paper'])
      for (const learner of learners) {
        const attempts = await storedAttempts(t.db, learner.id, s.id)
        expect(attempts.map((attempt) => attempt.attempt_number)).toEqual([1, 2])
        expect(attempts.map((attempt) => attempt.mode).sort()).toEqual(['online', 'paper'])
      }
    })

    it('still takes the late submission of an online attempt whose time ran out before a sheet was recorded', async () => {
      const s = await setUp({ duration_minutes: 10 })
      const learner = await createUser(t.database)
      expect((await call(learner, 'GET', `/api/quizzes/${s.id}/`)).status).toBe(200)
      t.clock.advance(10 * MINUTE + GRACE + 1)
      await s.onPaper(learner, 'AAA')

      const late = await s.submit(learner, 'AAA')
      expect(late.status).toBe(200)
      expect(late.body).toMatchObject({ late: true, score: 0 })
      expect(await modes(learner.id, s.id)).toEqual([
        [1, 'online', 1],
        [2, 'paper', 1],
      ])
      expect(await tally(s.id)).toEqual([{ score_hundredths: 0, learners: 1 }])
    })

    it('numbers after a gap a deleted paper attempt left', async () => {
      const s = await setUp()
      const learner = await createUser(t.database)
      await s.online(learner, 'AAA')
      const paper = await s.onPaper(learner, 'AAA')
      await s.online(learner, 'AAA')
      await t.db.deleteFrom('attempt_answers').where('attempt_id', '=', paper.id).execute()
      await t.db.deleteFrom('attempts').where('id', '=', paper.id).execute()

      expect((await call(learner, 'GET', `/api/quizzes/${s.id}/`)).status).toBe(200)
      expect((await s.onPaper(learner, 'AAA')).attempt_number).toBe(5)
      expect((await modes(learner.id, s.id)).map(([number]) => number)).toEqual([1, 3, 4, 5])
    })
  })

  describe('results, ranks and percentiles', () => {
    it("gives a paper attempt's report card its mode, no times, and ranks it among the first attempts", async () => {
      const s = await setUp()
      const [ram, sita, hari] = [
        await createUser(t.database),
        await createUser(t.database),
        await createUser(t.database),
      ]
      const ramPaper = await s.onPaper(ram, 'AAA') // 3.00, his first
      const sitaOnline = await s.online(sita, 'AB-') // 0.80
      await s.online(hari, 'BBB') // -0.60, his first
      const hariPaper = await s.onPaper(hari, 'AAA') // 3.00, his second: not counted
      expect(await tally(s.id)).toEqual([
        { score_hundredths: -60, learners: 1 },
        { score_hundredths: 80, learners: 1 },
        { score_hundredths: 300, learners: 1 },
      ])

      const card = await s.report(ram, ramPaper.id)
      expect(card).toMatchObject({
        attempt_number: 1,
        mode: 'paper',
        ranked: true,
        score: 3,
        correct: 3,
        completed_timestamp: iso(s.sitting.heldAt),
        analysis: { participants: 3, rank: 1, percentile: 100 },
      })
      expect(card.answers).toEqual(
        s.questionIds.map((question, i) =>
          expect.objectContaining({
            question,
            selected_option: s.options[i]![0],
            marked: false,
            time_spent_seconds: 0,
          }),
        ),
      )
      expect((await s.report(sita, sitaOnline)).analysis).toMatchObject({ participants: 3, rank: 2, percentile: 50 })
      expect((await s.report(sita, sitaOnline)).mode).toBe('online')
      // Hari's paper attempt ranks against the others' first attempts, his own online one left out.
      expect((await s.report(hari, hariPaper.id)).analysis).toMatchObject({ participants: 3, rank: 1, percentile: 50 })
    })

    it('counts a first online attempt still in progress, not a paper attempt recorded meanwhile', async () => {
      const s = await setUp()
      const [learner, other] = [await createUser(t.database), await createUser(t.database)]
      await s.online(other, 'AAA')
      expect((await call(learner, 'GET', `/api/quizzes/${s.id}/`)).status).toBe(200)
      const paper = await s.onPaper(learner, 'AA-')
      expect(paper.attempt_number).toBe(2)
      expect(await tally(s.id)).toEqual([{ score_hundredths: 300, learners: 1 }])
      // Not counted yet: ranked among the one counted learner without being one of them.
      expect((await s.report(learner, paper.id)).analysis).toMatchObject({ participants: 1, rank: 2, percentile: 0 })

      expect((await s.submit(learner, 'B--')).status).toBe(200)
      expect(await tally(s.id)).toEqual([
        { score_hundredths: -20, learners: 1 },
        { score_hundredths: 300, learners: 1 },
      ])
      expect((await s.report(learner, paper.id)).analysis).toMatchObject({ participants: 2, rank: 2, percentile: 0 })
    })

    it("puts a paper attempt in the learner's progress and its mistakes in the practice deck", async () => {
      const s = await setUp()
      const learner = await createUser(t.database)
      const paper = await s.onPaper(learner, 'AB-')

      const progress = await call(learner, 'GET', '/api/results/progress/')
      expect(progress.body.attempts).toEqual([
        expect.objectContaining({
          attempt_id: paper.id,
          mode: 'paper',
          correct: 1,
          incorrect: 1,
          unanswered: 1,
          completed_timestamp: iso(s.sitting.heldAt),
        }),
      ])
      expect(progress.body.topics).toEqual([{ topic: 'general', correct: 1, incorrect: 1, unanswered: 1 }])
      const deck = await call(learner, 'GET', '/api/practice/')
      expect(deck.body.total).toBe(2)
      expect(deck.body.cards.map((card: { question: { id: number } }) => card.question.id).sort()).toEqual(
        [s.questionIds[1], s.questionIds[2]].sort(),
      )
    })
  })

  describe("the institution's tables", () => {
    it('lists a paper attempt with its mode in the attempts table and the CSV, and counts it in statistics', async () => {
      const s = await setUp()
      const [ram, sita] = [await createUser(t.database), await createUser(t.database)]
      const paper = await s.onPaper(ram, 'AAA')
      await s.online(sita, 'BA-')

      for (const which of ['all', 'first', 'best']) {
        const page = await call(s.admin, 'GET', `/api/admin/quizzes/${s.id}/attempts/?which=${which}`)
        expect(page.status).toBe(200)
        expect(page.body.count).toBe(2)
        expect(page.body.results.map((row: { mode: string }) => row.mode)).toEqual(['paper', 'online'])
        expect(page.body.results[0]).toEqual({
          attempt_id: paper.id,
          user: { id: ram.id, username: ram.username, full_name: ram.full_name },
          attempt_number: 1,
          score: 3,
          correct: 3,
          incorrect: 0,
          unanswered: 0,
          started_at: iso(s.sitting.heldAt),
          completed_timestamp: iso(s.sitting.heldAt),
          duration_seconds: 0,
          late: false,
          mode: 'paper',
        })
      }

      const csv = await t.app.inject({
        method: 'GET',
        url: `/api/admin/quizzes/${s.id}/attempts.csv`,
        headers: await bearerFor(t.tokens, s.admin),
      })
      const lines = csv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n')
      expect(lines[0]).toMatch(/,duration_seconds,late,mode,Q1,Q2,Q3$/)
      expect(lines[1]).toMatch(new RegExp(`^${paper.id},${ram.username},.*,0,false,paper,A,A,A$`))
      expect(lines[2]).toMatch(/,false,online,B,A,$/)

      const statistics = await call(s.admin, 'GET', `/api/admin/quizzes/${s.id}/statistics/?which=first`)
      expect(statistics.body.attempts).toBe(2)
      expect(statistics.body.questions[0]).toMatchObject({ facility: 0.5, unanswered: 0 })
      expect(statistics.body.questions[0].options.map((option: { count: number }) => option.count)).toEqual([
        1, 1, 0, 0,
      ])
      expect(statistics.body.questions[2]).toMatchObject({ facility: 0.5, unanswered: 1 })
    })
  })

  describe('key decisions', () => {
    it('re-score a paper attempt, its place in the rank tally, its report and its practice deck', async () => {
      const s = await setUp()
      const [ram, sita] = [await createUser(t.database), await createUser(t.database)]
      const paper = await s.onPaper(ram, 'BAA') // 1.80
      const sitaAttempt = await s.online(sita, 'AAA') // 3.00
      const revision = (
        await t.db
          .selectFrom('questions')
          .select('revision_id')
          .where('id', '=', s.questionIds[0]!)
          .executeTakeFirstOrThrow()
      ).revision_id!
      expect((await call(ram, 'GET', '/api/practice/')).body.total).toBe(1)

      const decided = await call(s.admin, 'POST', `/api/admin/questions/${s.questionIds[0]}/key/`, {
        revision_id: revision,
        action: 'change',
        correct_option_ids: [s.options[0]![1]],
        note: 'B is right',
        dry_run: false,
      })
      expect(decided.status).toBe(200)
      expect(decided.body.score_changes).toEqual(
        expect.arrayContaining([
          { attempt_id: paper.id, username: ram.username, old_score: 1.8, new_score: 3 },
          { attempt_id: sitaAttempt, username: sita.username, old_score: 3, new_score: 1.8 },
        ]),
      )
      expect(await tally(s.id)).toEqual([
        { score_hundredths: 180, learners: 1 },
        { score_hundredths: 300, learners: 1 },
      ])
      const card = await s.report(ram, paper.id)
      expect(card).toMatchObject({ mode: 'paper', score: 3, analysis: { rank: 1, participants: 2 } })
      expect(card.answers[0].regrade).toMatchObject({ old_marks: -0.2, new_marks: 1, note: 'B is right' })
      expect((await call(ram, 'GET', '/api/practice/')).body.total).toBe(0)
    })
  })

  describe('live mocks', () => {
    it('ranks a paper attempt of its sitting on the leaderboard beside online takers, once a learner', async () => {
      const startsAt = t.clock.now() + 10 * MINUTE
      const s = await setUp(
        { live_starts_at: startsAt, live_join_minutes: 5, duration_minutes: 30, draw_mode: 'frozen' },
        startsAt,
      )
      const ends = startsAt + 30 * MINUTE
      const [ram, sita, hari] = [
        await createUser(t.database, { full_name: 'Ram' }),
        await createUser(t.database, { full_name: 'Sita' }),
        await createUser(t.database, { full_name: 'Hari' }),
      ]
      t.clock.set(startsAt + MINUTE)
      expect((await call(ram, 'GET', `/api/quizzes/${s.id}/`)).status).toBe(200)
      expect((await s.submit(ram, 'AAA')).status).toBe(200)
      expect((await call(hari, 'GET', `/api/quizzes/${s.id}/`)).status).toBe(200)
      expect((await s.submit(hari, 'B--')).status).toBe(200)

      // Sita sat in the hall; her sheet is read in the join window, and is her ranked sitting of the mock.
      t.clock.set(startsAt + 2 * MINUTE)
      expect((await s.onPaper(sita, 'AB-')).ranked).toBe(1)
      const again = await call(sita, 'GET', `/api/quizzes/${s.id}/`)
      expect(again.status).toBe(409)
      expect(again.body.detail).toBe(liveMessages.alreadyStarted)
      // Hari sat online in the window: a sheet of his is practice, never a second place on the board.
      expect((await s.onPaper(hari, 'AAA')).ranked).toBe(0)

      t.clock.set(ends + GRACE + 1)
      const board = await call(sita, 'GET', `/api/quizzes/${s.id}/leaderboard/`)
      expect(board.body).toMatchObject({
        status: 'provisional',
        participants: 3,
        top: [
          { rank: 1, name: 'Ram', score: 3 },
          { rank: 2, name: 'Sita', score: 0.8 },
          { rank: 3, name: 'Hari', score: -0.2 },
        ],
        me: { rank: 2, percentile: 50, score: 0.8 },
      })
      expect(await tally(s.id)).toEqual([
        { score_hundredths: -20, learners: 1 },
        { score_hundredths: 80, learners: 1 },
        { score_hundredths: 300, learners: 1 },
      ])

      // The window moved to the first minute only: the online starts after it are practice, the paper attempts of
      // the sitting are still each learner's ranked one (Hari's sheet now, his online attempt being practice).
      const moved = await call(s.admin, 'PATCH', `/api/admin/quizzes/${s.id}/`, {
        live: { starts_at: iso(startsAt), join_minutes: 1 },
      })
      expect(moved.status).toBe(200)
      expect(await modes(sita.id, s.id)).toEqual([[1, 'paper', 1]])
      expect(await modes(hari.id, s.id)).toEqual([
        [1, 'online', 0],
        [2, 'paper', 1],
      ])
      const after = await call(sita, 'GET', `/api/quizzes/${s.id}/leaderboard/`)
      expect(after.body).toMatchObject({
        participants: 2,
        top: [
          { rank: 1, name: 'Hari', score: 3 },
          { rank: 2, name: 'Sita', score: 0.8 },
        ],
      })
      expect(await tally(s.id)).toEqual([
        { score_hundredths: 80, learners: 1 },
        { score_hundredths: 300, learners: 1 },
      ])
    })
  })
})
