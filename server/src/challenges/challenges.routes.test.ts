import { describe, expect, it } from 'vitest'
import type { UserRow } from '../db/schema'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { openQuiz, requestsAs, storedOptionIds, storedTally } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'

const DAY = 24 * 3_600_000

describe.each(dialects)('answer-key challenges on %s', (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)

  /** Three questions, options A (right) B C D; answers by letter per question, '-' unanswered. */
  async function setUp() {
    const admin = await createUser(t.database, { is_admin: 1 })
    const made = await openQuiz(t, {}, { questionCount: 3 })
    const options = await Promise.all(made.questionIds.map((id) => storedOptionIds(t.db, id)))
    const answers = (pattern: string) =>
      Object.fromEntries(
        made.questionIds.map((id, i) => [id, pattern[i] === '-' ? null : options[i]!['ABCD'.indexOf(pattern[i]!)]!]),
      )
    const sit = async (pattern: string, user?: UserRow) => {
      const learner = user ?? (await createUser(t.database))
      const submitted = await call(learner, 'POST', `/api/quizzes/${made.quiz.id}/submit/`, {
        answers: answers(pattern),
      })
      expect(submitted.status).toBe(200)
      return { learner, attemptId: submitted.body.attempt_id as number, result: submitted.body }
    }
    const revisionOf = async (questionId: number) =>
      (await t.db.selectFrom('questions').select('revision_id').where('id', '=', questionId).executeTakeFirstOrThrow())
        .revision_id!
    const decide = (questionId: number, body: object) =>
      call(admin, 'POST', `/api/admin/questions/${questionId}/key/`, body)
    const report = async (learner: UserRow, attemptId: number) =>
      (await call(learner, 'GET', `/api/results/${attemptId}/`)).body
    return { admin, ...made, options, answers, sit, revisionOf, decide, report }
  }

  const attemptRows = (quizId: number) =>
    t.db.selectFrom('attempts').selectAll().where('quiz_id', '=', quizId).orderBy('id').execute()
  const tally = (quizId: number) => storedTally(t.db, quizId)

  describe('POST /api/results/{attemptId}/flags/', () => {
    it('flags a question of a finished attempt, replaces a second flag, and shows it on the report card', async () => {
      const s = await setUp()
      const { learner, attemptId } = await s.sit('BAA')
      const first = await call(learner, 'POST', `/api/results/${attemptId}/flags/`, {
        question_id: s.questionIds[0],
        reason: 'wrong_key',
        proposed_option_id: s.options[0]![1],
        note: 'B is right: see the textbook.',
      })
      expect(first.status).toBe(201)
      expect(first.body).toEqual({
        id: expect.any(Number),
        question_id: s.questionIds[0],
        reason: 'wrong_key',
        proposed_option_id: s.options[0]![1],
        proposed_option_ids: null,
        proposed_value: null,
        note: 'B is right: see the textbook.',
        status: 'open',
      })
      const second = await call(learner, 'POST', `/api/results/${attemptId}/flags/`, {
        question_id: s.questionIds[0],
        reason: 'ambiguous',
      })
      expect(second.status).toBe(201)
      expect(second.body).toMatchObject({ id: first.body.id, reason: 'ambiguous', proposed_option_id: null, note: '' })
      expect(await t.db.selectFrom('flags').selectAll().execute()).toHaveLength(1)
      const card = await s.report(learner, attemptId)
      expect(card.answers[0].flag).toEqual(second.body)
      expect(card.answers[0].regrade).toBeNull()
      expect(card.answers[1].flag).toBeNull()
      // The card says until when: the quiz's challenge_days (7 by default) after the attempt finished.
      expect(Date.parse(card.challenge_closes_at) - Date.parse(card.completed_timestamp)).toBe(7 * DAY)
    })

    it('refuses a question not in the attempt, an option not of it, an attempt in progress, and a closed window', async () => {
      const s = await setUp()
      const other = await openQuiz(t, {}, { questionCount: 1 })
      const { learner, attemptId } = await s.sit('AAA')
      const flag = (body: object) => call(learner, 'POST', `/api/results/${attemptId}/flags/`, body)

      const notInAttempt = await flag({ question_id: other.questionIds[0], reason: 'typo' })
      expect(notInAttempt.status).toBe(400)
      expect(Object.keys(notInAttempt.body.errors)).toEqual(['question_id'])
      const foreignOption = await flag({
        question_id: s.questionIds[0],
        reason: 'wrong_key',
        proposed_option_id: s.options[1]![0],
      })
      expect(foreignOption.status).toBe(400)
      expect(Object.keys(foreignOption.body.errors)).toEqual(['proposed_option_id'])
      const badReason = await flag({ question_id: s.questionIds[0], reason: 'because' })
      expect(badReason.status).toBe(400)
      expect(Object.keys(badReason.body.errors)).toEqual(['reason'])
      const longNote = await flag({ question_id: s.questionIds[0], reason: 'other', note: 'x'.repeat(1001) })
      expect(longNote.status).toBe(400)

      // In progress: the learner opens the quiz again.
      const started = await call(learner, 'GET', `/api/quizzes/${s.quiz.id}/`)
      const inProgress = await call(learner, 'POST', `/api/results/${started.body.attempt.id}/flags/`, {
        question_id: s.questionIds[0],
        reason: 'typo',
      })
      expect(inProgress.status).toBe(409)

      t.clock.advance(7 * DAY + 60_000)
      const closed = await flag({ question_id: s.questionIds[0], reason: 'typo' })
      expect(closed.status).toBe(409)
      expect(closed.body.code).toBe('challenge_closed')
      // The window uses the quiz's current challenge_days.
      await t.db.updateTable('quizzes').set({ challenge_days: 30 }).where('id', '=', s.quiz.id).execute()
      expect((await flag({ question_id: s.questionIds[0], reason: 'typo' })).status).toBe(201)

      const stranger = await createUser(t.database)
      expect(
        (
          await call(stranger, 'POST', `/api/results/${attemptId}/flags/`, {
            question_id: s.questionIds[0],
            reason: 'typo',
          })
        ).status,
      ).toBe(404)
      expect(await t.db.selectFrom('flags').selectAll().execute()).toHaveLength(1)
    })
  })

  describe('POST /api/admin/questions/{questionId}/key/', () => {
    it('drops a question with full_marks_all: a dry run changes nothing, the commit raises the unanswered, a re-run changes nothing', async () => {
      const s = await setUp()
      const left = await s.sit('-AA') // 2.00
      const wrong = await s.sit('BAA') // 1.80
      const right = await s.sit('AAA') // 3.00
      const revision = await s.revisionOf(s.questionIds[0]!)
      const before = await attemptRows(s.quiz.id)

      const dry = await s.decide(s.questionIds[0]!, {
        revision_id: revision,
        action: 'drop',
        note: 'Misprint',
        dry_run: true,
      })
      expect(dry.status).toBe(200)
      expect(dry.body.attempts_affected).toBe(2)
      expect(dry.body.learners_affected).toBe(2)
      expect(dry.body.score_changes).toEqual([
        { attempt_id: wrong.attemptId, username: wrong.learner.username, old_score: 1.8, new_score: 3 },
        { attempt_id: left.attemptId, username: left.learner.username, old_score: 2, new_score: 3 },
      ])
      expect(dry.body.key_version).toBeUndefined()
      expect(await attemptRows(s.quiz.id)).toEqual(before)
      expect(await t.db.selectFrom('regrades').selectAll().execute()).toEqual([])

      const commit = await s.decide(s.questionIds[0]!, {
        revision_id: revision,
        action: 'drop',
        note: 'Misprint',
        dry_run: false,
      })
      expect(commit.status).toBe(200)
      expect(commit.body).toMatchObject({ ...dry.body, key_version: 1 })
      const after = await attemptRows(s.quiz.id)
      expect(after.map((row) => [row.score_hundredths, row.correct, row.incorrect, row.unanswered])).toEqual([
        [300, 3, 0, 0],
        [300, 3, 0, 0],
        [300, 3, 0, 0],
      ])
      expect(await tally(s.quiz.id)).toEqual([{ score_hundredths: 300, learners: 3 }])
      const card = await s.report(left.learner, left.attemptId)
      expect(card.score).toBe(3)
      expect(card.answers[0].regrade).toEqual({
        old_marks: 0,
        new_marks: 1,
        decided_at: expect.any(String),
        note: 'Misprint',
      })
      expect(card.analysis).toMatchObject({ rank: 1, participants: 3 })
      expect((await s.report(right.learner, right.attemptId)).answers[0].regrade).toBeNull()
      const told = await t.db
        .selectFrom('notifications')
        .select(['user_id', 'kind', 'text_en', 'text_ne', 'link'])
        .orderBy('user_id')
        .execute()
      expect(told).toEqual([
        {
          user_id: left.learner.id,
          kind: 'score_changed',
          text_en: expect.stringContaining('from 2.00 to 3.00'),
          text_ne: expect.stringContaining('२.०० बाट ३.००'),
          link: `/results/${left.attemptId}`,
        },
        {
          user_id: wrong.learner.id,
          kind: 'score_changed',
          text_en: expect.stringContaining('from 1.80 to 3.00'),
          text_ne: expect.stringContaining('१.८० बाट ३.००'),
          link: `/results/${wrong.attemptId}`,
        },
      ])

      const again = await s.decide(s.questionIds[0]!, {
        revision_id: revision,
        action: 'drop',
        note: 'Misprint',
        dry_run: false,
      })
      expect(again.status).toBe(200)
      expect(again.body).toMatchObject({ attempts_affected: 0, score_changes: [], rank_changes: [], key_version: 1 })
      expect(await attemptRows(s.quiz.id)).toEqual(after)
      expect(await t.db.selectFrom('key_versions').selectAll().execute()).toHaveLength(1)
      expect(await t.db.selectFrom('notifications').selectAll().execute()).toHaveLength(2)

      const audit = await call(s.admin, 'GET', '/api/admin/audit/?action=key_decision')
      expect(audit.status).toBe(200)
      expect(audit.body.results).toHaveLength(1)
    })

    it('accept_several ranks equal two learners who chose different options, and moves other learners’ ranks', async () => {
      const s = await setUp()
      const a = await s.sit('AAA') // 3.00
      const b = await s.sit('BAA') // 1.80
      const c = await s.sit('AA-') // 2.00
      const revision = await s.revisionOf(s.questionIds[0]!)
      expect((await s.report(c.learner, c.attemptId)).analysis).toMatchObject({ rank: 2, percentile: 50 })
      const result = await s.decide(s.questionIds[0]!, {
        revision_id: revision,
        action: 'accept_several',
        correct_option_ids: [s.options[0]![0], s.options[0]![1]],
        note: 'Both are right.',
        dry_run: false,
      })
      expect(result.status).toBe(200)
      expect(result.body.score_changes).toEqual([
        { attempt_id: b.attemptId, username: b.learner.username, old_score: 1.8, new_score: 3 },
      ])
      expect(result.body.rank_changes).toEqual(
        expect.arrayContaining([
          { username: b.learner.username, quiz_id: s.quiz.id, old_rank: 3, new_rank: 1 },
          { username: c.learner.username, quiz_id: s.quiz.id, old_rank: 2, new_rank: 3 },
        ]),
      )
      const cardA = await s.report(a.learner, a.attemptId)
      const cardB = await s.report(b.learner, b.attemptId)
      expect(cardA.analysis.rank).toBe(1)
      expect(cardB.analysis.rank).toBe(1)
      expect(cardB.score).toBe(3)
      expect(cardB.questions[0].options.filter((o: { is_correct: boolean }) => o.is_correct)).toHaveLength(2)
      expect((await s.report(c.learner, c.attemptId)).analysis).toMatchObject({ rank: 3, percentile: 0 })
    })

    it('exclude lowers max_score and the question total, and new attempts are scored on the new key', async () => {
      const s = await setUp()
      const a = await s.sit('BAA') // 1.80
      const revision = await s.revisionOf(s.questionIds[0]!)
      const result = await s.decide(s.questionIds[0]!, {
        revision_id: revision,
        action: 'drop',
        drop_policy: 'exclude',
        note: 'Out of syllabus.',
        dry_run: false,
      })
      expect(result.status).toBe(200)
      const card = await s.report(a.learner, a.attemptId)
      expect(card).toMatchObject({ score: 2, max_score: 2, correct: 2, incorrect: 0, unanswered: 0 })
      const progress = (await call(a.learner, 'GET', '/api/results/progress/')).body
      expect(progress.attempts[0]).toMatchObject({ score: 2, max_score: 2, total_questions: 2 })

      const later = await s.sit('BAA')
      expect(later.result).toMatchObject({ score: 2, max_score: 2, correct: 2, total_questions: 2 })
    })

    it('change re-scores, and statistics, CSV, progress and the practice deck follow', async () => {
      const s = await setUp()
      const a = await s.sit('AAA') // right now, wrong after
      const b = await s.sit('BAA') // wrong now, right after
      const deck = async (user: UserRow) => (await call(user, 'GET', '/api/practice/')).body
      expect((await deck(a.learner)).total).toBe(0)
      expect((await deck(b.learner)).total).toBe(1)
      const revision = await s.revisionOf(s.questionIds[0]!)
      const result = await s.decide(s.questionIds[0]!, {
        revision_id: revision,
        action: 'change',
        correct_option_ids: [s.options[0]![1]],
        note: 'The key had A; B is right.',
        dry_run: false,
      })
      expect(result.status).toBe(200)
      expect(result.body.attempts_affected).toBe(2)
      expect((await deck(a.learner)).total).toBe(1)
      expect((await deck(b.learner)).total).toBe(0)
      const practised = await call(a.learner, 'POST', `/api/practice/${s.questionIds[0]}/`, {
        option_id: s.options[0]![1],
      })
      expect(practised.body).toMatchObject({ correct: true, correct_option_id: s.options[0]![1] })

      const statistics = (await call(s.admin, 'GET', `/api/admin/quizzes/${s.quiz.id}/statistics/?which=all`)).body
      expect(statistics.questions[0].facility).toBe(0.5)
      expect(statistics.questions[0].options.map((o: { is_correct: boolean }) => o.is_correct)).toEqual([
        false,
        true,
        false,
        false,
      ])
      expect(statistics.mean).toBe(2.4)
      const csv = (
        await t.app.inject({
          method: 'GET',
          url: `/api/admin/quizzes/${s.quiz.id}/attempts.csv?which=all`,
          headers: await bearerFor(t.tokens, s.admin),
        })
      ).body
      expect(csv).toContain(`,${a.learner.username},`)
      expect(csv.split('\n')[1]).toMatch(/,3,3,0,0,/)
      expect(csv.split('\n')[2]).toMatch(/,1\.8,2,1,0,/)
      const progress = (await call(a.learner, 'GET', '/api/results/progress/')).body
      expect(progress.attempts[0]).toMatchObject({ score: 1.8, correct: 2, incorrect: 1 })
    })

    it('a key decision pays the cards a finish still owes before it moves the deck (decision 080)', async () => {
      const s = await setUp()
      const a = await s.sit('AAA') // right now, wrong after
      const b = await s.sit('BAB') // wrong now, right after; question 3 wrong either way
      // Neither deck read: both finishes' cards are still owed when the decision comes.
      expect(await t.db.selectFrom('owed_practice_cards').select('user_id').execute()).toEqual([
        { user_id: b.learner.id },
      ])
      const revision = await s.revisionOf(s.questionIds[0]!)
      const result = await s.decide(s.questionIds[0]!, {
        revision_id: revision,
        action: 'change',
        correct_option_ids: [s.options[0]![1]],
        note: 'The key had A; B is right.',
        dry_run: false,
      })
      expect(result.status).toBe(200)
      expect(await t.db.selectFrom('owed_practice_cards').selectAll().execute()).toEqual([])
      const deckOf = async (user: UserRow) =>
        (await call(user, 'GET', '/api/practice/')).body.cards.map(
          (card: { question: { id: number } }) => card.question.id,
        )
      expect(await deckOf(a.learner)).toEqual([s.questionIds[0]])
      // Owed question 1 left with the decision and does not come back; owed question 3 stayed.
      expect(await deckOf(b.learner)).toEqual([s.questionIds[2]])
    })

    it('refuses a revision of another question, options not of it, and a body without note or dry_run, changing nothing', async () => {
      const s = await setUp()
      await s.sit('AAA')
      const revision = await s.revisionOf(s.questionIds[0]!)
      const otherRevision = await s.revisionOf(s.questionIds[1]!)
      const wrongRevision = await s.decide(s.questionIds[0]!, {
        revision_id: otherRevision,
        action: 'keep',
        note: 'x',
        dry_run: false,
      })
      expect(wrongRevision.status).toBe(400)
      expect(Object.keys(wrongRevision.body.errors)).toEqual(['revision_id'])
      const foreign = await s.decide(s.questionIds[0]!, {
        revision_id: revision,
        action: 'change',
        correct_option_ids: [s.options[1]![0]],
        note: 'x',
        dry_run: false,
      })
      expect(foreign.status).toBe(400)
      expect(Object.keys(foreign.body.errors)).toEqual(['correct_option_ids.0'])
      const noNote = await s.decide(s.questionIds[0]!, { revision_id: revision, action: 'keep', dry_run: false })
      expect(noNote.status).toBe(400)
      expect(Object.keys(noNote.body.errors)).toEqual(['note'])
      const noDryRun = await s.decide(s.questionIds[0]!, { revision_id: revision, action: 'keep', note: 'x' })
      expect(noDryRun.status).toBe(400)
      expect(Object.keys(noDryRun.body.errors)).toEqual(['dry_run'])
      const noOptions = await s.decide(s.questionIds[0]!, {
        revision_id: revision,
        action: 'change',
        note: 'x',
        dry_run: true,
      })
      expect(noOptions.status).toBe(400)
      expect(Object.keys(noOptions.body.errors)).toEqual(['correct_option_ids'])
      expect(
        (await s.decide(999_999, { revision_id: revision, action: 'keep', note: 'x', dry_run: true })).status,
      ).toBe(404)
      const learner = await createUser(t.database)
      expect(
        (
          await call(learner, 'POST', `/api/admin/questions/${s.questionIds[0]}/key/`, {
            revision_id: revision,
            action: 'keep',
            note: 'x',
            dry_run: true,
          })
        ).status,
      ).toBe(403)
      expect(await t.db.selectFrom('key_versions').selectAll().execute()).toEqual([])
    })
  })

  describe('GET /api/admin/flags/', () => {
    it('groups flags by revision, most flagged first, without identities, and decides them with the key', async () => {
      const s = await setUp()
      const a = await s.sit('BAA')
      const b = await s.sit('BBA')
      const c = await s.sit('AAA')
      const flag = (x: { learner: UserRow; attemptId: number }, question: number, body: object) =>
        call(x.learner, 'POST', `/api/results/${x.attemptId}/flags/`, { question_id: s.questionIds[question], ...body })
      await flag(a, 0, { reason: 'wrong_key', proposed_option_id: s.options[0]![1], note: 'B, surely' })
      await flag(b, 0, { reason: 'wrong_key', proposed_option_id: s.options[0]![1] })
      await flag(c, 1, { reason: 'typo', note: 'Spelling' })
      const queue = await call(s.admin, 'GET', '/api/admin/flags/')
      expect(queue.status).toBe(200)
      expect(queue.body.count).toBe(2)
      const [top, next] = queue.body.results
      expect(top.question).toMatchObject({ id: s.questionIds[0], revision_id: await s.revisionOf(s.questionIds[0]!) })
      expect(top.flags).toEqual({ total: 2, by_reason: { wrong_key: 2 }, proposed: { [s.options[0]![1]!]: 2 } })
      expect(top.notes).toEqual([{ text: 'B, surely', reason: 'wrong_key', created_at: expect.any(String) }])
      expect(top.question.options.map((o: { chosen: number }) => o.chosen)).toEqual([1, 2, 0, 0])
      expect(top.facility).toBe(0.3333)
      expect(top.quizzes).toEqual([{ id: s.quiz.id, title: { en: s.quiz.title_en, ne: s.quiz.title_ne } }])
      expect(JSON.stringify(queue.body)).not.toContain(a.learner.username)
      expect(next.flags.total).toBe(1)

      await s.decide(s.questionIds[1]!, {
        revision_id: await s.revisionOf(s.questionIds[1]!),
        action: 'keep',
        note: 'The spelling is right.',
        dry_run: false,
      })
      expect((await call(s.admin, 'GET', '/api/admin/flags/?status=open')).body.count).toBe(1)
      const decided = (await call(s.admin, 'GET', '/api/admin/flags/?status=decided')).body
      expect(decided.results).toHaveLength(1)
      expect((await s.report(c.learner, c.attemptId)).answers[1].flag.status).toBe('rejected')
      const told = await t.db.selectFrom('notifications').select(['user_id', 'kind', 'text_en', 'link']).execute()
      expect(told).toEqual([
        {
          user_id: c.learner.id,
          kind: 'flag_decided',
          text_en: expect.stringContaining('The spelling is right.'),
          link: `/results/${c.attemptId}`,
        },
      ])
      expect((await call(s.admin, 'GET', '/api/admin/flags/?status=closed')).status).toBe(400)
    })
  })
})
