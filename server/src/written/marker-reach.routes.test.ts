import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { createMarker, handTo } from '../../test/marking'
import { requestsWithEmptyBodies } from '../../test/requests'
import { useTestApp } from '../../test/test-app'
import { writtenPaper } from '../../test/written-papers'

// Issue 72's marking holes (docs/decisions/090): what a marker reaches, their own answers, what their release releases,
// rubric items a learner was not shown, and a live mock's marks before its key is out.

const MINUTE = 60_000

describe.each(dialects)('what a marker reaches on %s', (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsWithEmptyBodies(t)

  async function scene() {
    const paper = await writtenPaper(t)
    const stored = await paper.rubric('PUT', {
      revision: 0,
      items: [
        { points: 5, title: { en: 'Names the body' } },
        { points: 3, title: { en: 'Gives an example' } },
      ],
    })
    const [named, example] = (stored.body.rubric.items as { id: number }[]).map((item) => item.id) as [number, number]
    const marking = `/api/admin/quizzes/${paper.quizId}/marking/`
    const answerUrl = (id: number) => `/api/admin/written-answers/${id}/`
    return { ...paper, named, example, marking, next: `${marking}${paper.questionId}/next/`, answerUrl }
  }

  it('never hands a marker or an admin their own answer, nor lets them open, mark or release it', async () => {
    const paper = await scene()
    const marker = await createMarker(t)
    const own = await paper.sit(marker)
    // The only answer is the marker's own: nothing for them to mark.
    expect((await as(marker, 'POST', paper.next)).status).toBe(204)
    expect((await as(marker, 'GET', paper.answerUrl(own.answerId))).status).toBe(404)
    const put = await as(marker, 'PUT', `${paper.answerUrl(own.answerId)}evaluation/`, {
      items: [paper.named],
      rubric_revision: 1,
    })
    expect(put.status).toBe(404)
    // Not even a claim put on it by hand opens it.
    await handTo(t, own.answerId, marker.id)
    expect((await as(marker, 'GET', paper.answerUrl(own.answerId))).status).toBe(404)
    expect((await as(marker, 'DELETE', `${paper.answerUrl(own.answerId)}claim/`)).status).toBe(404)
    expect(
      (await as(marker, 'PUT', `${paper.answerUrl(own.answerId)}evaluation/`, { rubric_revision: 1 })).status,
    ).toBe(404)

    // An admin who also sat the quiz: the same (the claim put by hand has run out).
    t.clock.advance(10 * MINUTE + 1)
    const admin = await createUser(t.database, { is_admin: 1 })
    const theirs = await paper.sit(admin)
    expect((await as(admin, 'POST', paper.next)).body.answer_id).toBe(own.answerId)
    expect((await as(admin, 'GET', paper.answerUrl(theirs.answerId))).status).toBe(404)
    expect(
      (await as(admin, 'PUT', `${paper.answerUrl(theirs.answerId)}evaluation/`, { rubric_revision: 1 })).status,
    ).toBe(404)
    // Another admin marks both; the admin's own regrade request is not theirs to decide.
    await paper.mark(theirs.answerId, { items: [paper.named] })
    await paper.release()
    const asked = await as(admin, 'POST', `/api/results/${theirs.attemptId}/written/${paper.questionId}/regrade/`, {
      message: 'Look again',
    })
    expect(asked.status).toBe(201)
    expect((await as(admin, 'GET', '/api/admin/regrades/')).body.count).toBe(0)
    expect((await as(paper.admin, 'GET', '/api/admin/regrades/')).body.count).toBe(1)
    const decided = await as(admin, 'PATCH', `/api/admin/regrades/${asked.body.id}/`, {
      status: 'accepted',
      response: 'Mine, so yes',
    })
    expect(decided.status).toBe(404)
  })

  it("refuses a marker the answers they were never given, by id, as if unknown; the holder's stay theirs", async () => {
    const paper = await scene()
    const [first, second] = [await paper.sit(), await paper.sit()]
    const [holder, prowler] = [await createMarker(t), await createMarker(t)]
    const given: number = (await as(holder, 'POST', paper.next)).body.answer_id
    const notGiven = given === first.answerId ? second.answerId : first.answerId
    for (const answerId of [given, notGiven]) {
      expect((await as(prowler, 'GET', paper.answerUrl(answerId))).status).toBe(404)
      expect((await as(prowler, 'DELETE', `${paper.answerUrl(answerId)}claim/`)).status).toBe(404)
      const put = await as(prowler, 'PUT', `${paper.answerUrl(answerId)}evaluation/`, {
        items: [paper.named],
        rubric_revision: 1,
      })
      expect(put.status).toBe(404)
    }
    // The holder opens and marks theirs, and keeps reaching it once marked; never the other.
    expect((await as(holder, 'GET', paper.answerUrl(given))).body.answer_id).toBe(given)
    expect((await as(holder, 'GET', paper.answerUrl(notGiven))).status).toBe(404)
    const marked = await as(holder, 'PUT', `${paper.answerUrl(given)}evaluation/`, {
      items: [paper.named],
      rubric_revision: 1,
    })
    expect(marked.body).toEqual({ score: 5 })
    expect((await as(holder, 'GET', paper.answerUrl(given))).body.evaluation).toMatchObject({ score: 5 })
    // Nothing was stored for the refused requests.
    const rows = await t.db
      .selectFrom('written_answers')
      .select(['id', 'status', 'marked_by'])
      .where('id', 'in', [given, notGiven])
      .orderBy('id')
      .execute()
    expect(rows.find((row) => row.id === notGiven)).toMatchObject({ status: 'submitted', marked_by: null })
    // An admin reaches every answer.
    expect((await as(paper.admin, 'GET', paper.answerUrl(notGiven))).status).toBe(200)
  })

  it('releases only the answers a marker marked; an admin releases every marked one', async () => {
    const paper = await scene()
    const [first, second] = [await paper.sit(), await paper.sit()]
    const [one, two] = [await createMarker(t), await createMarker(t)]
    for (const [marker, sat] of [
      [one, first],
      [two, second],
    ] as const) {
      await handTo(t, sat.answerId, marker.id)
      const marked = await as(marker, 'PUT', `${paper.answerUrl(sat.answerId)}evaluation/`, {
        items: [paper.named],
        rubric_revision: 1,
      })
      expect(marked.status).toBe(200)
    }
    const status = async (answerId: number) =>
      (await t.db.selectFrom('written_answers').select('status').where('id', '=', answerId).executeTakeFirstOrThrow())
        .status
    expect((await as(one, 'POST', `${paper.marking}release/`, {})).body).toEqual({ released: 1 })
    expect([await status(first.answerId), await status(second.answerId)]).toEqual(['released', 'marked'])
    // The second learner reads nothing of the marking yet.
    const result = await as(second.user, 'GET', `/api/results/${second.attemptId}/written/${paper.questionId}/`)
    expect(result.body).toMatchObject({ status: 'submitted', marks: null, items: [], model_answer: null })
    expect((await as(paper.admin, 'POST', `${paper.marking}release/`, {})).body).toEqual({ released: 1 })
    expect(await status(second.answerId)).toBe('released')
  })

  it("refuses a regrade naming an item the learner was not shown, as it refuses another rubric's or none", async () => {
    const paper = await scene()
    const sat = await paper.sit()
    await paper.mark(sat.answerId, { items: [paper.named] })
    await paper.release()
    const regrade = `/api/results/${sat.attemptId}/written/${paper.questionId}/regrade/`
    const other = await paper.as(paper.admin, 'POST', '/api/admin/bank/questions/', {
      type: 'written',
      text: { en: 'Another written question' },
      marks: 5,
    })
    const foreign = await paper.as(paper.admin, 'PUT', `/api/admin/bank/questions/${other.body.id}/rubric/`, {
      revision: 0,
      items: [{ points: 1, title: { en: 'Elsewhere' } }],
    })
    // The example item is in this rubric but not on the learner's answer: its id is as unknown as any other.
    const answers = []
    for (const itemId of [paper.example, foreign.body.rubric.items[0].id, 999_999]) {
      const refused = await as(sat.user, 'POST', regrade, { message: 'ok', item_id: itemId })
      answers.push({ status: refused.status, body: refused.body })
    }
    expect(answers[0]).toMatchObject({ status: 400, body: { errors: { item_id: [expect.any(String)] } } })
    expect(answers[1]).toEqual(answers[0])
    expect(answers[2]).toEqual(answers[0])
    // An item the learner was shown may be named.
    expect((await as(sat.user, 'POST', regrade, { message: 'ok', item_id: paper.named })).status).toBe(201)
  })

  it("holds a live mock's written marks until its key is out: release is 409 key_withheld until then", async () => {
    const paper = await scene()
    const startsAt = t.clock.now() + MINUTE
    const scheduled = await paper.as(paper.admin, 'PATCH', `/api/admin/quizzes/${paper.quizId}/`, {
      live: { starts_at: new Date(startsAt).toISOString(), join_minutes: 5 },
    })
    expect(scheduled.status).toBe(200)
    t.clock.set(startsAt + MINUTE)
    const early = await paper.sit()
    const sitting = await createUser(t.database)
    expect((await paper.as(sitting, 'GET', `/api/quizzes/${paper.quizId}/`)).status).toBe(200)
    const marker = await createMarker(t)
    expect((await as(marker, 'POST', paper.next)).body.answer_id).toBe(early.answerId)
    expect(
      (
        await as(marker, 'PUT', `${paper.answerUrl(early.answerId)}evaluation/`, {
          items: [paper.named],
          rubric_revision: 1,
        })
      ).status,
    ).toBe(200)
    for (const who of [marker, paper.admin]) {
      const refused = await as(who, 'POST', `${paper.marking}release/`, {})
      expect(refused).toMatchObject({ status: 409, body: { code: 'key_withheld' } })
    }
    const result = `/api/results/${early.attemptId}/written/${paper.questionId}/`
    expect((await as(early.user, 'GET', result)).body).toMatchObject({
      status: 'submitted',
      marks: null,
      items: [],
      comment: null,
      model_answer: null,
    })
    const until = Date.parse((await as(early.user, 'GET', `/api/results/${early.attemptId}/`)).body.key_withheld_until)
    expect(until).toBeGreaterThan(t.clock.now())
    t.clock.set(until + 1)
    expect((await as(marker, 'POST', `${paper.marking}release/`, {})).body).toEqual({ released: 1 })
    expect((await as(early.user, 'GET', result)).body).toMatchObject({
      status: 'released',
      marks: 5,
      model_answer: { en: expect.any(String) },
    })
  })
})
