import { describe, expect, it } from 'vitest'
import { decodeJwtPart } from '../../test/auth-requests'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { addPage, createMarker, stringsIn } from '../../test/marking'
import { requestsWithEmptyBodies } from '../../test/requests'
import { useTestApp } from '../../test/test-app'
import { writtenPaper } from '../../test/written-papers'

const rubricBody = {
  groups: [{ title: { en: 'Conclusion' }, exclusive: true }],
  items: [
    { points: 4, title: { en: 'Names the basis' } },
    { points: 3.5, title: { en: 'Strong conclusion' }, group_index: 0 },
    { points: 1.25, title: { en: 'Weak conclusion' }, group_index: 0 },
  ],
  revision: 0,
}

describe.each(dialects)('markers and marking on %s', (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsWithEmptyBodies(t)

  async function paperWithRubric() {
    const paper = await writtenPaper(t)
    const stored = await paper.rubric('PUT', rubricBody)
    const items: number[] = stored.body.rubric.items.map((item: { id: number }) => item.id)
    return { ...paper, items, marking: `/api/admin/quizzes/${paper.quizId}/marking/` }
  }

  it('lets an admin make a user a marker, shows it in the users list and the access token', async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    const user = await createUser(t.database, { username: 'Gita' })
    const patched = await as(admin, 'PATCH', `/api/admin/users/${user.id}/`, { is_marker: true })
    expect(patched.status).toBe(200)
    expect(patched.body.is_marker).toBe(true)
    const listed = await as(admin, 'GET', '/api/admin/users/?search=Gita')
    expect(listed.body.results[0]).toMatchObject({ id: user.id, is_marker: true })
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      payload: { username: 'Gita', password: user.password },
    })
    expect(decodeJwtPart(login.json().access, 1)).toMatchObject({ is_marker: true, is_admin: false })
    const audit = await t.db.selectFrom('audit_events').selectAll().where('entity_type', '=', 'user').execute()
    expect(audit.at(-1)).toMatchObject({ action: 'update', entity_id: user.id })

    // A learner or a marker cannot make markers.
    expect((await as(user, 'PATCH', `/api/admin/users/${admin.id}/`, { is_marker: true })).status).toBe(403)
    const learner = await createUser(t.database)
    expect((await as(learner, 'PATCH', `/api/admin/users/${learner.id}/`, { is_marker: true })).status).toBe(403)
    expect((await as(admin, 'PATCH', `/api/admin/users/${user.id}/`, { is_marker: 'yes' })).status).toBe(400)
  })

  it('opens the marking routes to markers and nothing else of the admin', async () => {
    const paper = await paperWithRubric()
    const marker = await createMarker(t)
    const learner = await createUser(t.database)
    expect((await as(marker, 'GET', paper.marking)).status).toBe(200)
    expect((await as(learner, 'GET', paper.marking)).status).toBe(403)
    expect((await as(learner, 'POST', `${paper.marking}${paper.questionId}/next/`)).status).toBe(403)
    expect((await as(learner, 'POST', `${paper.marking}release/`, {})).status).toBe(403)
    expect((await t.app.inject({ method: 'GET', url: paper.marking })).statusCode).toBe(401)
    for (const [method, url] of [
      ['GET', '/api/admin/users/'],
      ['GET', `/api/admin/quizzes/${paper.quizId}/`],
      ['GET', `/api/admin/bank/questions/${paper.questionId}/rubric/`],
      ['GET', `/api/admin/quizzes/${paper.quizId}/attempts/`],
      ['GET', '/api/admin/audit/'],
    ] as const)
      expect({ url, status: (await as(marker, method, url)).status }).toEqual({ url, status: 403 })
  })

  it('counts answers by question, hands each marker a different answer, none with the learner named, then 204', async () => {
    const paper = await paperWithRubric()
    const learners = await Promise.all(
      [0, 1, 2].map((n) =>
        createUser(t.database, { username: `sita${n}`, full_name: `Sita Sharma ${n}`, phone_number: `981234567${n}` }),
      ),
    )
    const sat = []
    for (const learner of learners) sat.push(await paper.sit(learner))
    const [first, second] = [await createMarker(t), await createMarker(t)]
    const next = `${paper.marking}${paper.questionId}/next/`
    const [a, b] = await Promise.all([as(first, 'POST', next), as(second, 'POST', next)])
    expect([a.status, b.status]).toEqual([200, 200])
    expect(a.body.answer_id).not.toBe(b.body.answer_id)
    expect(a.body).toMatchObject({ text: 'My answer', word_count: expect.any(Number), pages: [], evaluation: null })
    expect(a.body.anonymous_code).toMatch(/^S-[0-9A-Z]{6}$/)
    expect(a.body.rubric.items).toHaveLength(3)
    // Asking again gives a marker back its own claim.
    expect((await as(first, 'POST', next)).body.answer_id).toBe(a.body.answer_id)

    const overview = await as(first, 'GET', paper.marking)
    expect(overview.body).toEqual({
      questions: [{ question_id: paper.questionId, number: 2, submitted: 3, marked: 0, released: 0, claimed: 2 }],
    })
    const third = await as(await createMarker(t), 'POST', next)
    expect(third.status).toBe(200)
    const fourth = await as(await createMarker(t), 'POST', next)
    expect(fourth.status).toBe(204)
    expect(new Set([a, b, third].map((r) => r.body.answer_id))).toEqual(new Set(sat.map((s) => s.answerId)))

    const identities = learners.flatMap((l) => [l.username, l.full_name, l.phone_number]).filter(Boolean)
    for (const payload of [a, b, third, overview])
      for (const text of stringsIn(payload.body)) for (const id of identities) expect(text).not.toContain(id)

    // A claim runs out after 10 minutes: another marker then gets the answer.
    t.clock.advance(10 * 60_000 + 1)
    expect((await as(await createMarker(t), 'POST', next)).status).toBe(200)
  })

  it("refuses another quiz's or a choice question, and an unknown quiz", async () => {
    const paper = await paperWithRubric()
    const marker = await createMarker(t)
    expect((await as(marker, 'POST', `${paper.marking}${paper.choiceId}/next/`)).status).toBe(404)
    expect((await as(marker, 'POST', `/api/admin/quizzes/999999/marking/${paper.questionId}/next/`)).status).toBe(404)
    expect((await as(marker, 'GET', '/api/admin/quizzes/999999/marking/')).status).toBe(404)
  })

  it('stores a mark with annotations, refuses what API.md refuses, and marks again until released', async () => {
    const paper = await paperWithRubric()
    const { answerId } = await paper.sit()
    const pageId = await addPage(t, answerId)
    const [marker, other] = [await createMarker(t), await createMarker(t)]
    const claimed = await as(marker, 'POST', `${paper.marking}${paper.questionId}/next/`)
    expect(claimed.body.pages).toEqual([
      { id: pageId, url: expect.any(String), phone_url: expect.any(String), width: 1600, height: 2200 },
    ])
    // The marker's page address is the learner's signed one, served without a bearer token (an <img>).
    expect((await t.app.inject({ method: 'GET', url: claimed.body.pages[0].url })).statusCode).toBe(200)
    const url = `/api/admin/written-answers/${answerId}/evaluation/`
    const doc = {
      v: 1,
      marks: [
        {
          k: 'ink',
          points: [
            [0, 0],
            [10_000, 10_000],
          ],
          width: 3,
          color: '#cc0000',
        },
        { k: 'stamp', code: 'tick', x: 500, y: 600 },
        { k: 'box', x: 1, y: 2, w: 3, h: 4 },
        { k: 'note', x: 5, y: 6, text: 'Cite the article' },
        { k: 'item', item_id: paper.items[0], x: 7, y: 8 },
      ],
    }
    const body = {
      items: [paper.items[0], paper.items[1]],
      adjustment: -0.5,
      comment: { en: 'Good structure' },
      annotations: [{ page_id: pageId, doc }],
      rubric_revision: 1,
    }
    // Another marker never given it finds no such answer; an admin (who reaches all) meets the claim.
    expect((await as(other, 'PUT', url, body)).status).toBe(404)
    expect((await as(paper.admin, 'PUT', url, body)).body.code).toBe('claimed_by_other')
    const bad = async (changes: object) => (await as(marker, 'PUT', url, { ...body, ...changes })).status
    expect(await bad({ items: [paper.items[1], paper.items[2]] })).toBe(400)
    expect(await bad({ adjustment: 0.125 })).toBe(400)
    expect(await bad({ annotations: [{ page_id: pageId, doc: { ...doc, v: 2 } }] })).toBe(400)
    expect(
      await bad({
        annotations: [{ page_id: pageId, doc: { v: 1, marks: [{ k: 'box', x: 10_001, y: 0, w: 1, h: 1 }] } }],
      }),
    ).toBe(400)
    expect(
      await bad({ annotations: [{ page_id: pageId, doc: { v: 1, marks: [{ k: 'box', x: 1.5, y: 0, w: 1, h: 1 }] } }] }),
    ).toBe(400)
    expect(await bad({ annotations: [{ page_id: pageId, doc: { v: 1, marks: [{ k: 'arrow', x: 1, y: 1 }] } }] })).toBe(
      400,
    )
    expect(
      await bad({
        annotations: [{ page_id: pageId, doc: { v: 1, marks: [{ k: 'stamp', code: 'star', x: 1, y: 1 }] } }],
      }),
    ).toBe(400)
    const big = { v: 1, marks: Array.from({ length: 1200 }, () => ({ k: 'note', x: 1, y: 1, text: 'x'.repeat(20) })) }
    expect(await bad({ annotations: [{ page_id: pageId, doc: big }] })).toBe(400)
    expect(await bad({ annotations: [{ page_id: pageId + 999, doc }] })).toBe(400)
    const stale = await as(marker, 'PUT', url, { ...body, rubric_revision: 0 })
    expect([stale.status, stale.body.code]).toEqual([409, 'rubric_changed'])
    expect((await as(marker, 'PUT', '/api/admin/written-answers/999999/evaluation/', body)).status).toBe(404)
    expect(
      await t.db.selectFrom('written_answers').select('status').where('id', '=', answerId).executeTakeFirst(),
    ).toEqual({
      status: 'submitted',
    })

    const marked = await as(marker, 'PUT', url, body)
    expect(marked.status).toBe(200)
    expect(marked.body).toEqual({ score: 7 })
    const page = await t.db
      .selectFrom('written_answer_pages')
      .select('annotations')
      .where('id', '=', pageId)
      .executeTakeFirstOrThrow()
    expect(JSON.parse(page.annotations!)).toEqual(doc)
    // Marked, the claim has ended: the marker who marked it may mark again, a marker never given it may not.
    expect((await as(other, 'PUT', url, { ...body, items: [paper.items[0]], adjustment: 0 })).status).toBe(404)
    expect((await as(marker, 'PUT', url, { ...body, items: [paper.items[0]], adjustment: 0 })).body).toEqual({
      score: 4,
    })
    const trail = await t.db
      .selectFrom('audit_events')
      .selectAll()
      .where('entity_type', '=', 'written_answer')
      .execute()
    expect(trail.map((event) => event.action)).toEqual(['mark', 'mark'])

    expect((await as(marker, 'POST', `${paper.marking}release/`, {})).body).toEqual({ released: 1 })
    const late = await as(marker, 'PUT', url, body)
    expect([late.status, late.body.code]).toEqual([409, 'answer_released'])
  })

  it("ends a claim on request: the holder's own, or any as admin; a marker not given the answer -> 404", async () => {
    const paper = await paperWithRubric()
    const { answerId } = await paper.sit()
    const [marker, other] = [await createMarker(t), await createMarker(t)]
    const next = `${paper.marking}${paper.questionId}/next/`
    expect((await as(marker, 'POST', next)).body.answer_id).toBe(answerId)
    expect((await as(other, 'POST', next)).status).toBe(204)
    const claim = `/api/admin/written-answers/${answerId}/claim/`
    // A marker not given the answer finds no such answer (ids cannot be walked); its holder ends the claim.
    const refused = await as(other, 'DELETE', claim)
    expect([refused.status, refused.body?.code]).toEqual([404, 'not_found'])
    expect((await as(marker, 'DELETE', claim)).status).toBe(204)
    expect((await as(other, 'POST', next)).body.answer_id).toBe(answerId)
    expect((await as(paper.admin, 'DELETE', claim)).status).toBe(204)
    // Ended, it is no longer the first marker's; a lapsed claim of one's own is ended with nothing to change.
    expect((await as(marker, 'DELETE', claim)).status).toBe(404)
    expect((await as(other, 'POST', next)).body.answer_id).toBe(answerId)
    t.clock.advance(10 * 60_000 + 1)
    expect((await as(other, 'DELETE', claim)).status).toBe(204)
    expect((await as(marker, 'DELETE', '/api/admin/written-answers/999999/claim/')).status).toBe(404)
    const trail = await t.db
      .selectFrom('audit_events')
      .select(['action', 'actor_id'])
      .where('entity_type', '=', 'written_answer')
      .execute()
    expect(trail).toEqual([
      { action: 'claim_end', actor_id: marker.id },
      { action: 'claim_end', actor_id: paper.admin.id },
    ])
  })
})
