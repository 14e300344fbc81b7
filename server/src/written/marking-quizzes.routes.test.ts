import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { addPage, createMarker, handTo } from '../../test/marking'
import { requestsWithEmptyBodies } from '../../test/requests'
import { useTestApp } from '../../test/test-app'
import { writtenPaper } from '../../test/written-papers'

// A marker's way in, `GET /api/admin/marking/` (docs/decisions/094).
describe.each(dialects)("a marker's list of quizzes to mark on %s", (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsWithEmptyBodies(t)
  const list = '/api/admin/marking/'

  async function scene() {
    const paper = await writtenPaper(t)
    const stored = await paper.rubric('PUT', { items: [{ points: 7, title: { en: 'Complete' } }], revision: 0 })
    const item: number = stored.body.rubric.items[0].id
    const marker = await createMarker(t)
    const mark = async (answerId: number) => {
      await handTo(t, answerId, marker.id)
      const marked = await as(marker, 'PUT', `/api/admin/written-answers/${answerId}/evaluation/`, {
        items: [item],
        rubric_revision: 1,
      })
      expect(marked.status).toBe(200)
    }
    /** A learner who sat the paper and left the written question blank. */
    const sitBlank = async () => {
      const user = await createUser(t.database)
      await paper.as(user, 'GET', `/api/quizzes/${paper.quizId}/`)
      await paper.as(user, 'POST', `/api/quizzes/${paper.quizId}/submit/`, { answers: {} })
    }
    return { ...paper, marker, mark, sitBlank }
  }

  it('lists the quiz with its counts, moving as answers are marked and released; never the reader’s own as to mark', async () => {
    const paper = await scene()
    const [first, second, third] = [await paper.sit(), await paper.sit(), await paper.sit()]
    await paper.sitBlank()
    // The marker sat the paper too: their answer is not theirs to mark, an admin's to mark still.
    await paper.sit(paper.marker)
    // An answer of photos only is not blank.
    await t.db.updateTable('written_answers').set({ text: '' }).where('id', '=', third.answerId).execute()
    await addPage(t, third.answerId)

    const before = await as(paper.marker, 'GET', list)
    expect(before.status).toBe(200)
    expect(before.body).toEqual({
      count: 1,
      page_size: 50,
      quizzes: [
        {
          id: paper.quizId,
          title: { en: 'Section Officer written, set 1', ne: '' },
          questions: 1,
          submitted: 5,
          marked: 0,
          released: 0,
          // Three learners' answers: not the blank one, not the marker's own.
          to_mark: 3,
          last_activity: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      ],
    })
    expect((await as(paper.admin, 'GET', list)).body.quizzes[0].to_mark).toBe(4)

    await paper.mark(first.answerId)
    await paper.release()
    await paper.mark(second.answerId)
    const after = await as(paper.marker, 'GET', list)
    // The blank answer was settled at 0 by the release.
    expect(after.body.quizzes[0]).toMatchObject({ submitted: 5, marked: 1, released: 2, to_mark: 1 })
    const { submitted, marked, released } = after.body.quizzes[0]
    // The marker's own answer is the rest of what is not yet marked.
    expect(submitted - marked - released).toBe(2)
  })

  it('leaves out drafts, deleted quizzes, unfinished attempts and papers without written answers; newest first', async () => {
    const older = await scene()
    await older.sit()
    t.clock.advance(60_000)
    const newer = await writtenPaper(t)
    await newer.sit()
    const unfinished = await writtenPaper(t)
    await unfinished.as(await createUser(t.database), 'GET', `/api/quizzes/${unfinished.quizId}/`)
    const draft = await writtenPaper(t)
    await draft.sit()
    await t.db.updateTable('quizzes').set({ status: 'draft' }).where('id', '=', draft.quizId).execute()
    const deleted = await writtenPaper(t)
    await deleted.sit()
    await t.db.updateTable('quizzes').set({ deleted_at: t.clock.now() }).where('id', '=', deleted.quizId).execute()
    await writtenPaper(t) // nobody sat it

    const listed = await as(older.marker, 'GET', list)
    expect(listed.body.count).toBe(2)
    expect(listed.body.quizzes.map((quiz: { id: number }) => quiz.id)).toEqual([newer.quizId, older.quizId])

    // Marking the older quiz's answer is newer activity.
    t.clock.advance(60_000)
    const [answer] = await t.db
      .selectFrom('written_answers as w')
      .innerJoin('attempts as a', 'a.id', 'w.attempt_id')
      .select('w.id')
      .where('a.quiz_id', '=', older.quizId)
      .execute()
    await older.mark(answer!.id)
    const moved = await as(older.marker, 'GET', list)
    expect(moved.body.quizzes.map((quiz: { id: number }) => quiz.id)).toEqual([older.quizId, newer.quizId])
    expect((await as(older.marker, 'GET', `${list}?page=2`)).body).toMatchObject({ count: 2, quizzes: [] })
  })

  it('is open to admins and markers only', async () => {
    const paper = await scene()
    await paper.sit()
    const learner = await createUser(t.database)
    expect((await as(learner, 'GET', list)).status).toBe(403)
    expect((await t.app.inject({ method: 'GET', url: list })).statusCode).toBe(401)
    expect((await as(paper.marker, 'GET', `${list}?page=0`)).status).toBe(400)
    expect((await as(paper.admin, 'GET', list)).status).toBe(200)
  })
})
