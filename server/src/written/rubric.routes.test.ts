import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { questionBody } from '../../test/fixtures/admin.fixtures'
import { useTestApp } from '../../test/test-app'
import { writtenPaper } from '../../test/written-papers'
import { listRescores } from './written-answers.repository'

const firstRubric = {
  scoring: 'positive',
  groups: [{ title: { en: 'Conclusion' }, exclusive: true }],
  items: [
    { points: 4, title: { en: 'Names the constitutional basis' } },
    { points: 3.5, title: { en: 'Strong conclusion' }, group_index: 0 },
    { points: 1.25, title: { en: 'Weak conclusion' }, group_index: 0, explanation: { en: 'Restates the question' } },
    { points: -2, title: { en: 'Over the word limit' } },
  ],
  revision: 0,
}

describe.each(dialects)('rubrics of written questions on %s', (dialect) => {
  const t = useTestApp(dialect)

  it('reads the default rubric, stores one with new groups and items, and keeps their ids across edits', async () => {
    const paper = await writtenPaper(t)
    expect((await paper.rubric('GET')).body).toEqual({
      question_id: paper.questionId,
      marks: 10,
      scoring: 'positive',
      floor: 0,
      ceiling: 10,
      groups: [],
      items: [],
      revision: 0,
    })
    // The defaults read and sent back are no change (issue 73: they were null).
    const same = await paper.rubric('PUT', { floor: 0, ceiling: 10, revision: 0 })
    expect(same.body.rubric).toMatchObject({ floor: 0, ceiling: 10, revision: 0 })
    const stored = await paper.rubric('PUT', firstRubric)
    expect(stored.status).toBe(200)
    const { rubric } = stored.body
    expect(rubric.revision).toBe(1)
    expect(rubric.items.map((item: { points: number }) => item.points)).toEqual([4, 3.5, 1.25, -2])
    const group = rubric.groups[0].id
    expect(rubric.items.map((item: { group_id: number | null }) => item.group_id)).toEqual([null, group, group, null])
    expect(rubric.items[2].explanation).toEqual({ en: 'Restates the question', ne: '' })
    expect(stored.body.rescored).toEqual({ answers: 0, attempts: 0, learners_notified: 0, rank_changes: [] })

    const [keep, , drop, last] = rubric.items
    const edited = await paper.rubric('PUT', {
      floor: 1,
      ceiling: 9.5,
      groups: [{ id: group, title: { en: 'Conclusion', ne: 'निष्कर्ष' }, exclusive: true }],
      items: [
        { id: last.id, points: -1, title: { en: 'Over the word limit' } },
        { id: keep.id, points: 4, title: { en: 'Names the basis' } },
        { points: 2, title: { en: 'New point' }, group_id: group },
      ],
      revision: 1,
    })
    expect(edited.status).toBe(200)
    expect(edited.body.rubric).toMatchObject({ floor: 1, ceiling: 9.5, revision: 2 })
    const ids = edited.body.rubric.items.map((item: { id: number }) => item.id)
    expect(ids.slice(0, 2)).toEqual([last.id, keep.id])
    expect(ids).not.toContain(drop.id)
    expect((await paper.rubric('GET')).body).toEqual(edited.body.rubric)
  })

  it('refuses a stale revision with 409 rubric_changed and stores nothing', async () => {
    const paper = await writtenPaper(t)
    await paper.rubric('PUT', firstRubric)
    const stale = await paper.rubric('PUT', { ...firstRubric, items: [] })
    expect(stale.status).toBe(409)
    expect(stale.body.code).toBe('rubric_changed')
    expect((await paper.rubric('GET')).body.items).toHaveLength(4)
  })

  it.each([
    ['points with 3 decimals', { items: [{ points: 1.125, title: { en: 'A' } }] }, 'items.0.points'],
    ['points over 100', { items: [{ points: 101, title: { en: 'A' } }] }, 'items.0.points'],
    ['an item without a title', { items: [{ points: 1, title: { en: '' } }] }, 'items.0.title.en'],
    ['an unknown item id', { items: [{ id: 999_999, points: 1, title: { en: 'A' } }] }, 'items.0.id'],
    ['an unknown group id', { groups: [{ id: 999_999, title: { en: 'G' } }] }, 'groups.0.id'],
    [
      'a group not in the rubric',
      { items: [{ group_id: 999_999, points: 1, title: { en: 'A' } }] },
      'items.0.group_id',
    ],
    [
      'a group index out of range',
      { items: [{ group_index: 3, points: 1, title: { en: 'A' } }] },
      'items.0.group_index',
    ],
    ['a ceiling above the marks', { ceiling: 10.5 }, 'ceiling'],
    ['a floor above the ceiling', { floor: 5, ceiling: 4 }, 'floor'],
    ['a bound with 3 decimals', { floor: 0.125 }, 'floor'],
    ['an unknown scoring', { scoring: 'both' }, 'scoring'],
    ['no revision', { revision: undefined }, 'revision'],
  ])('refuses %s: 400 at its path, nothing stored', async (_name, change, path) => {
    const paper = await writtenPaper(t)
    const refused = await paper.rubric('PUT', { ...firstRubric, ...change })
    expect(refused.status).toBe(400)
    expect(Object.keys(refused.body.errors)).toContain(path)
    expect((await paper.rubric('GET')).body.revision).toBe(0)
  })

  it('answers 404 for a choice question or an unknown one, and 403 to a learner', async () => {
    const paper = await writtenPaper(t)
    const choice = await paper.as(paper.admin, 'POST', '/api/admin/bank/questions/', questionBody({ image: null }))
    expect((await paper.as(paper.admin, 'GET', `/api/admin/bank/questions/${choice.body.id}/rubric/`)).status).toBe(404)
    expect((await paper.as(paper.admin, 'GET', '/api/admin/bank/questions/999999/rubric/')).status).toBe(404)
    const learner = await createUser(t.database)
    expect((await paper.as(learner, 'GET', `/api/admin/bank/questions/${paper.questionId}/rubric/`)).status).toBe(403)
  })

  it('re-scores the marked answers holding a changed item: a dry run stores nothing, a commit re-scores, records and tells', async () => {
    const paper = await writtenPaper(t)
    const { rubric } = (await paper.rubric('PUT', firstRubric)).body
    const [basis, strong, weak] = rubric.items.map((item: { id: number }) => item.id)
    const released = await paper.sit()
    const marked = await paper.sit()
    const untouched = await paper.sit()
    expect(await paper.mark(released.answerId, { items: [basis, strong] })).toBe(750)
    expect(await paper.mark(untouched.answerId, { items: [weak] })).toBe(125)
    await paper.release()
    expect(await paper.mark(marked.answerId, { items: [basis], adjustment: 50 })).toBe(450)
    const attemptScore = async (attemptId: number) =>
      (await t.db.selectFrom('attempts').select('score_hundredths').where('id', '=', attemptId).executeTakeFirst())!
        .score_hundredths
    // The choice question is right (+1); the released written marks join it.
    expect(await attemptScore(released.attemptId)).toBe(850)
    expect(await attemptScore(marked.attemptId)).toBe(100)

    const change = {
      ...firstRubric,
      revision: 1,
      groups: [{ id: rubric.groups[0].id, title: { en: 'Conclusion' }, exclusive: true }],
      items: rubric.items.map((item: { id: number; points: number }) => ({
        ...item,
        group_index: undefined,
        points: item.id === basis ? 5 : item.points,
      })),
    }
    const dry = await paper.rubric('PUT', { ...change, dry_run: true })
    expect(dry.body.rescored).toEqual({ answers: 2, attempts: 1, learners_notified: 1, rank_changes: [] })
    expect(dry.body.rubric.revision).toBe(1)
    expect(await attemptScore(released.attemptId)).toBe(850)

    const committed = await paper.rubric('PUT', change)
    expect(committed.body.rescored).toMatchObject({ answers: 2, attempts: 1, learners_notified: 1 })
    expect(committed.body.rubric.revision).toBe(2)
    expect(await attemptScore(released.attemptId)).toBe(950)
    expect(await attemptScore(marked.attemptId)).toBe(100)
    expect(await listRescores(t.db, released.answerId)).toMatchObject([
      { old_marks: 750, new_marks: 850, rubric_revision: 2, actor_id: paper.admin.id },
    ])
    expect(await listRescores(t.db, untouched.answerId)).toEqual([])
    // Each answer's re-score is in the audit trail, beside the change's own event (issue 73: only a count was).
    const audit = await paper.as(paper.admin, 'GET', '/api/admin/audit/?action=rescore')
    expect(audit.status).toBe(200)
    expect(
      audit.body.results.map((event: { entity_id: number; before: unknown; after: unknown; actor: unknown }) => [
        event.entity_id,
        event.before,
        event.after,
      ]),
    ).toEqual(
      [released.answerId, marked.answerId]
        .sort((a, b) => b - a)
        .map((id) => [
          id,
          { score: id === released.answerId ? 7.5 : 4.5 },
          { score: id === released.answerId ? 8.5 : 5.5, rubric_revision: 2, question_id: paper.questionId },
        ]),
    )
    // The release told each learner their marks are out (written_marked); the re-score tells only whose score moved.
    const told = await t.db
      .selectFrom('notifications')
      .select(['user_id', 'kind', 'text_en', 'link'])
      .where('kind', '!=', 'written_marked')
      .execute()
    expect(told).toEqual([
      {
        user_id: released.user.id,
        kind: 'score_changed',
        text_en: expect.stringContaining('8.50 to 9.50'),
        // The answer whose rubric changed, on the report card.
        link: `/results/${released.attemptId}#written-${paper.questionId}`,
      },
    ])

    // Texts alone: a new revision, nothing re-scored.
    const texts = await paper.rubric('PUT', {
      ...change,
      revision: 2,
      items: change.items.map((item: { title: { en: string } }) => ({ ...item, title: { en: `${item.title.en}!` } })),
    })
    expect(texts.body.rescored.answers).toBe(0)
    expect(texts.body.rubric.revision).toBe(3)

    // A deleted item leaves every answer that held it.
    const deleted = await paper.rubric('PUT', {
      ...change,
      revision: 3,
      items: change.items.filter((item: { id: number }) => item.id !== strong),
    })
    expect(deleted.body.rescored).toMatchObject({ answers: 1, attempts: 1 })
    expect(await attemptScore(released.attemptId)).toBe(600)
    const held = await t.db
      .selectFrom('written_answer_items')
      .select('item_id')
      .where('answer_id', '=', released.answerId)
      .execute()
    expect(held).toEqual([{ item_id: basis }])
  })

  it('refuses to make a group exclusive while a marked answer holds two of its items', async () => {
    const paper = await writtenPaper(t)
    const open = { ...firstRubric, groups: [{ title: { en: 'Conclusion' }, exclusive: false }] }
    const { rubric } = (await paper.rubric('PUT', open)).body
    const { answerId } = await paper.sit()
    await paper.mark(answerId, { items: [rubric.items[1].id, rubric.items[2].id] })
    const refused = await paper.rubric('PUT', {
      revision: 1,
      groups: [{ id: rubric.groups[0].id, title: { en: 'Conclusion' }, exclusive: true }],
      items: rubric.items,
    })
    expect(refused.status).toBe(400)
    expect(Object.keys(refused.body.errors)).toEqual(['groups.0.exclusive'])
    expect((await paper.rubric('GET')).body.revision).toBe(1)
    // Marking refuses two items of an exclusive group too.
    const exclusive = (await paper.rubric('PUT', { ...firstRubric, revision: 1 })).body.rubric
    const another = await paper.sit()
    const both = exclusive.items.slice(1, 3).map((item: { id: number }) => item.id)
    await expect(paper.mark(another.answerId, { items: both })).rejects.toMatchObject({
      status: 400,
      errors: { items: [expect.any(String)] },
    })
  })
})
