import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { storedTally } from '../../test/learner-api'
import { createMarker, handTo, stringsIn } from '../../test/marking'
import { requestsWithEmptyBodies } from '../../test/requests'
import { useTestApp } from '../../test/test-app'
import { writtenPaper } from '../../test/written-papers'

const DAY = 86_400_000

describe.each(dialects)('regrade requests on %s', (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsWithEmptyBodies(t)

  const attemptOf = (id: number) =>
    t.db
      .selectFrom('attempts')
      .select(['score_hundredths', 'marks_pending'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  const notices = (userId: number) =>
    t.db
      .selectFrom('notifications')
      .select(['kind', 'text_en', 'text_ne', 'link'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute()

  /** A learner's answer marked 5 of 10 by a marker (item "Names the body", 5 points) and released. */
  async function scene() {
    const paper = await writtenPaper(t)
    const stored = await paper.rubric('PUT', {
      revision: 0,
      items: [
        { points: 5, title: { en: 'Names the body' } },
        { points: 3, title: { en: 'Gives an example' } },
      ],
    })
    const [named, example] = (stored.body.rubric.items as { id: number }[]).map((item) => item.id)
    const marker = await createMarker(t)
    const sat = await paper.sit()
    const evaluation = `/api/admin/written-answers/${sat.answerId}/evaluation/`
    await handTo(t, sat.answerId, marker.id)
    const marked = await as(marker, 'PUT', evaluation, { items: [named], rubric_revision: 1 })
    expect(marked).toMatchObject({ status: 200, body: { score: 5 } })
    const released = await as(marker, 'POST', `/api/admin/quizzes/${paper.quizId}/marking/release/`, {})
    expect(released.status).toBe(200)
    const regrade = `/api/results/${sat.attemptId}/written/${paper.questionId}/regrade/`
    const result = `/api/results/${sat.attemptId}/written/${paper.questionId}/`
    return { ...paper, ...sat, named: named!, example: example!, marker, evaluation, regrade, result }
  }

  it('takes a request, which the marker accepts and settles by marking again: the score, ranks and learner follow', async () => {
    const paper = await scene()
    const before = await attemptOf(paper.attemptId)
    expect(before.marks_pending).toBe(0)
    const shown = await as(paper.user, 'GET', paper.result)
    expect(shown.body.regrade).toEqual({ open_until: new Date(t.clock.now() + 7 * DAY).toISOString(), request: null })

    const asked = await as(paper.user, 'POST', paper.regrade, {
      message: '  I gave an example in the second paragraph.  ',
      item_id: paper.named,
    })
    expect(asked).toMatchObject({
      status: 201,
      body: {
        status: 'open',
        message: 'I gave an example in the second paragraph.',
        item_id: paper.named,
        response: null,
        decided_at: null,
        settled_at: null,
        old_marks: null,
        new_marks: null,
      },
    })
    const requestId: number = asked.body.id
    // One request not closed per answer.
    expect(await as(paper.user, 'POST', paper.regrade, { message: 'Again' })).toMatchObject({
      status: 409,
      body: { code: 'regrade_open' },
    })
    expect((await as(paper.user, 'GET', paper.result)).body.regrade.request).toMatchObject({
      id: requestId,
      status: 'open',
    })

    // The marker who marked the question sees it, without the learner; a marker who did not, does not.
    const queue = await as(paper.marker, 'GET', '/api/admin/regrades/?status=open')
    expect(queue.status).toBe(200)
    expect(queue.body).toMatchObject({
      count: 1,
      results: [
        {
          id: requestId,
          answer_id: paper.answerId,
          quiz: { id: paper.quizId },
          question_id: paper.questionId,
          item: { id: paper.named, title: { en: 'Names the body' } },
          marks: 5,
          max_marks: 10,
          status: 'open',
        },
      ],
    })
    expect(queue.body.results[0].anonymous_code).toMatch(/^S-/)
    const learner = await t.db
      .selectFrom('users')
      .select(['username', 'full_name', 'phone_number'])
      .where('id', '=', paper.user.id)
      .executeTakeFirstOrThrow()
    const identifiers = [learner.username, learner.full_name, learner.phone_number].filter((value): value is string =>
      Boolean(value),
    )
    const anonymous = (body: unknown) => {
      for (const text of stringsIn(body)) for (const id of identifiers) expect(text).not.toContain(id)
    }
    anonymous(queue.body)
    const stranger = await createMarker(t)
    expect((await as(stranger, 'GET', '/api/admin/regrades/')).body.count).toBe(0)
    expect(
      (await as(stranger, 'PATCH', `/api/admin/regrades/${requestId}/`, { status: 'accepted', response: 'Yes' }))
        .status,
    ).toBe(404)
    expect((await as(paper.admin, 'GET', '/api/admin/regrades/')).body.count).toBe(1)

    // Released and not accepted: not markable.
    expect(await as(paper.marker, 'PUT', paper.evaluation, { items: [], rubric_revision: 1 })).toMatchObject({
      status: 409,
      body: { code: 'answer_released' },
    })

    const accepted = await as(paper.marker, 'PATCH', `/api/admin/regrades/${requestId}/`, {
      status: 'accepted',
      response: 'You are right, I will look again.',
    })
    expect(accepted).toMatchObject({
      status: 200,
      body: { id: requestId, status: 'accepted', response: 'You are right, I will look again.', settled_at: null },
    })
    anonymous(accepted.body)
    expect(
      (await as(paper.marker, 'PATCH', `/api/admin/regrades/${requestId}/`, { status: 'rejected', response: 'No' }))
        .body.code,
    ).toBe('regrade_decided')
    // Accepted and not yet settled is still the answer's request.
    expect((await as(paper.user, 'POST', paper.regrade, { message: 'And more' })).body.code).toBe('regrade_open')
    expect((await as(paper.admin, 'GET', '/api/admin/regrades/?status=accepted')).body.count).toBe(1)
    expect((await as(paper.admin, 'GET', '/api/admin/regrades/?status=open')).body.count).toBe(0)
    // Another marker may not settle it, nor open it; the marker of the question opens the answer and marks it again.
    expect(
      (await as(stranger, 'PUT', paper.evaluation, { items: [paper.named, paper.example], rubric_revision: 1 })).status,
    ).toBe(404)
    expect((await as(stranger, 'GET', `/api/admin/written-answers/${paper.answerId}/`)).status).toBe(404)
    const opened = await as(paper.marker, 'GET', `/api/admin/written-answers/${paper.answerId}/`)
    expect(opened.body).toMatchObject({
      answer_id: paper.answerId,
      evaluation: { items: [paper.named], score: 5, rubric_revision: 1 },
    })
    anonymous(opened.body)
    const tallyBefore = await storedTally(t.db, paper.quizId)
    expect(tallyBefore).toEqual([{ score_hundredths: before.score_hundredths, learners: 1 }])
    const remarked = await as(paper.marker, 'PUT', paper.evaluation, {
      items: [paper.named, paper.example],
      rubric_revision: 1,
    })
    expect(remarked).toMatchObject({ status: 200, body: { score: 8 } })
    expect(await attemptOf(paper.attemptId)).toEqual({
      score_hundredths: before.score_hundredths! + 300,
      marks_pending: 0,
    })
    expect(await storedTally(t.db, paper.quizId)).toEqual([
      { score_hundredths: before.score_hundredths! + 300, learners: 1 },
    ])
    const answer = await t.db
      .selectFrom('written_answers')
      .select(['status', 'score_hundredths'])
      .where('id', '=', paper.answerId)
      .executeTakeFirstOrThrow()
    expect(answer).toEqual({ status: 'released', score_hundredths: 800 })
    const result = await as(paper.user, 'GET', paper.result)
    expect(result.body).toMatchObject({
      status: 'released',
      marks: 8,
      regrade: { request: { id: requestId, status: 'accepted', old_marks: 5, new_marks: 8 } },
    })
    expect(result.body.regrade.request.settled_at).not.toBeNull()
    expect((await as(paper.user, 'GET', `/api/results/${paper.attemptId}/`)).body.score).toBe(
      (before.score_hundredths! + 300) / 100,
    )
    // Settled: the answer is released and closed again.
    expect((await as(paper.marker, 'PUT', paper.evaluation, { items: [], rubric_revision: 1 })).body.code).toBe(
      'answer_released',
    )
    const told = await notices(paper.user.id)
    expect(told.map((notice) => notice.kind)).toEqual(['written_marked', 'regrade_decided', 'score_changed'])
    expect(told[2]!.text_en).toContain('from')
    // All three link to the answer on the report card.
    expect(told[0]!.link).toBe(`/results/${paper.attemptId}#written-${paper.questionId}`)
    expect(told[1]!.link).toBe(`/results/${paper.attemptId}#written-${paper.questionId}`)
    expect(told[2]!.link).toBe(`/results/${paper.attemptId}#written-${paper.questionId}`)

    const trail = await t.db
      .selectFrom('audit_events')
      .select(['action', 'entity_type', 'entity_id', 'before_json', 'after_json'])
      .where('entity_id', '=', paper.answerId)
      .where('entity_type', '=', 'written_answer')
      .orderBy('id')
      .execute()
    expect(trail.map((event) => event.action)).toEqual(['mark', 'update', 'mark'])
    expect(JSON.parse(trail[1]!.after_json!)).toMatchObject({ regrade_id: requestId, status: 'accepted' })
    expect(JSON.parse(trail[2]!.before_json!)).toEqual({ score: 5 })
    expect(JSON.parse(trail[2]!.after_json!)).toMatchObject({ score: 8, regrade_id: requestId })

    // A new request once the first is closed; a rejection closes it and tells the learner.
    const second = await as(paper.user, 'POST', paper.regrade, { message: 'The example deserves more.' })
    expect(second.status).toBe(201)
    const rejected = await as(paper.admin, 'PATCH', `/api/admin/regrades/${second.body.id}/`, {
      status: 'rejected',
      response: 'The rubric gives an example 3 marks.',
    })
    expect(rejected).toMatchObject({ status: 200, body: { status: 'rejected' } })
    const decisions = await t.db
      .selectFrom('audit_events')
      .select('after_json')
      .where('entity_type', '=', 'written_answer')
      .where('entity_id', '=', paper.answerId)
      .where('action', '=', 'update')
      .orderBy('id')
      .execute()
    expect(JSON.parse(decisions.at(-1)!.after_json!)).toEqual({
      regrade_id: second.body.id,
      status: 'rejected',
      response: 'The rubric gives an example 3 marks.',
    })
    expect((await as(paper.marker, 'PUT', paper.evaluation, { items: [], rubric_revision: 1 })).status).toBe(409)
    expect((await notices(paper.user.id)).at(-1)).toMatchObject({ kind: 'regrade_decided' })
    expect((await as(paper.user, 'GET', paper.result)).body.regrade.request).toMatchObject({
      status: 'rejected',
      response: 'The rubric gives an example 3 marks.',
    })
    expect((await as(paper.admin, 'GET', '/api/admin/regrades/?status=rejected')).body.count).toBe(1)
  })

  it('tells a learner whose marks stay the same after the second marking', async () => {
    const paper = await scene()
    const asked = await as(paper.user, 'POST', paper.regrade, { message: 'Please look again.' })
    await as(paper.admin, 'PATCH', `/api/admin/regrades/${asked.body.id}/`, { status: 'accepted', response: 'OK' })
    const before = await attemptOf(paper.attemptId)
    // An admin may settle any request.
    const same = await as(paper.admin, 'PUT', paper.evaluation, { items: [paper.named], rubric_revision: 1 })
    expect(same).toMatchObject({ status: 200, body: { score: 5 } })
    expect(await attemptOf(paper.attemptId)).toEqual(before)
    const told = await notices(paper.user.id)
    expect(told.at(-1)).toMatchObject({ kind: 'regrade_decided' })
    expect(told.at(-1)!.text_en).toContain('stay 5.00')
    expect(told.at(-1)!.text_ne).toContain('५.००')
  })

  it('refuses a request before release, after 7 days, for a bad item, a bad message and another learner', async () => {
    const paper = await writtenPaper(t)
    const sat = await paper.sit()
    const regrade = `/api/results/${sat.attemptId}/written/${paper.questionId}/regrade/`
    expect(await as(sat.user, 'POST', regrade, { message: 'Too soon' })).toMatchObject({
      status: 409,
      body: { code: 'not_released' },
    })
    await paper.mark(sat.answerId, { adjustment: 400 })
    expect((await as(sat.user, 'POST', regrade, { message: 'Marked, not released' })).body.code).toBe('not_released')
    await paper.release()
    expect((await as(await createUser(t.database), 'POST', regrade, { message: 'Not mine' })).status).toBe(404)
    expect(
      (await as(sat.user, 'POST', `/api/results/${sat.attemptId}/written/${paper.choiceId}/regrade/`, { message: 'x' }))
        .status,
    ).toBe(404)
    for (const body of [{}, { message: '   ' }, { message: 'x'.repeat(2001) }, { message: 'ok', item_id: 'one' }]) {
      const refused = await as(sat.user, 'POST', regrade, body)
      expect(refused.status).toBe(400)
    }
    const badItem = await as(sat.user, 'POST', regrade, { message: 'ok', item_id: 999_999 })
    expect(badItem.status).toBe(400)
    expect(badItem.body.errors).toHaveProperty('item_id')
    // An item of another question's rubric is not this one's.
    const other = await paper.as(paper.admin, 'POST', '/api/admin/bank/questions/', {
      type: 'written',
      text: { en: 'Another written question' },
      marks: 5,
    })
    expect(other.status).toBe(201)
    const rubric = await paper.as(paper.admin, 'PUT', `/api/admin/bank/questions/${other.body.id}/rubric/`, {
      revision: 0,
      items: [{ points: 1, title: { en: 'Elsewhere' } }],
    })
    const foreign = await as(sat.user, 'POST', regrade, { message: 'ok', item_id: rubric.body.rubric.items[0].id })
    expect(foreign.status).toBe(400)

    // The last moment of the window is in; after it, closed.
    t.clock.advance(7 * DAY)
    const onTime = await as(sat.user, 'POST', regrade, { message: 'Just in time' })
    expect(onTime.status).toBe(201)
    await as(paper.admin, 'PATCH', `/api/admin/regrades/${onTime.body.id}/`, { status: 'rejected', response: 'No' })
    t.clock.advance(1)
    expect((await as(sat.user, 'POST', regrade, { message: 'Too late' })).body.code).toBe('regrade_closed')
  })

  it('takes one of two requests sent at once', async () => {
    const paper = await scene()
    const both = await Promise.all([
      as(paper.user, 'POST', paper.regrade, { message: 'First' }),
      as(paper.user, 'POST', paper.regrade, { message: 'Second' }),
    ])
    expect(both.map((response) => response.status).sort()).toEqual([201, 409])
    expect(
      await t.db.selectFrom('regrade_requests').select('id').where('answer_id', '=', paper.answerId).execute(),
    ).toHaveLength(1)
  })

  it('refuses learners the queue, bad filters and decisions, and unknown requests', async () => {
    const paper = await scene()
    const asked = await as(paper.user, 'POST', paper.regrade, { message: 'Please' })
    expect((await as(paper.user, 'GET', '/api/admin/regrades/')).status).toBe(403)
    expect(
      (await as(paper.user, 'PATCH', `/api/admin/regrades/${asked.body.id}/`, { status: 'accepted' })).status,
    ).toBe(403)
    expect((await as(paper.admin, 'GET', '/api/admin/regrades/?status=closed')).status).toBe(400)
    expect((await as(paper.admin, 'GET', '/api/admin/regrades/?page=0')).status).toBe(400)
    expect((await as(paper.admin, 'GET', '/api/admin/regrades/?quiz_id=abc')).status).toBe(400)
    expect(
      (await as(paper.admin, 'PATCH', '/api/admin/regrades/abc/', { status: 'accepted', response: 'x' })).status,
    ).toBe(404)
    expect((await as(paper.admin, 'GET', `/api/admin/regrades/?quiz_id=${paper.quizId + 1}`)).body.count).toBe(0)
    expect((await as(paper.admin, 'GET', `/api/admin/regrades/?quiz_id=${paper.quizId}`)).body.count).toBe(1)
    const url = `/api/admin/regrades/${asked.body.id}/`
    for (const body of [
      { status: 'settled', response: 'x' },
      { status: 'accepted' },
      { status: 'rejected', response: ' ' },
    ])
      expect((await as(paper.admin, 'PATCH', url, body)).status).toBe(400)
    expect(
      (await as(paper.admin, 'PATCH', '/api/admin/regrades/999999/', { status: 'accepted', response: 'x' })).status,
    ).toBe(404)
    expect((await as(paper.admin, 'GET', `/api/admin/written-answers/999999/`)).status).toBe(404)
    // An answer of an attempt still running is neither shown nor markable.
    const running = await createUser(t.database)
    const started = await as(running, 'GET', `/api/quizzes/${paper.quizId}/`)
    await as(running, 'PUT', `/api/attempts/${started.body.attempt.id}/written/${paper.questionId}/text/`, {
      text: 'Still writing',
    })
    const draft = await t.db
      .selectFrom('written_answers')
      .select('id')
      .where('attempt_id', '=', started.body.attempt.id)
      .executeTakeFirstOrThrow()
    expect((await as(paper.admin, 'GET', `/api/admin/written-answers/${draft.id}/`)).status).toBe(404)
    const early = await as(paper.admin, 'PUT', `/api/admin/written-answers/${draft.id}/evaluation/`, {
      items: [],
      rubric_revision: 1,
    })
    expect(early.status).toBe(404)
    expect((await as(paper.user, 'GET', `/api/admin/written-answers/${paper.answerId}/`)).status).toBe(403)
  })
})
