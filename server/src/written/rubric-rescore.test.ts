import { toHundredths, type Rubric } from '@quiz/contracts'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { randomInt, seededRandom } from '../../test/fixtures/seeded-random'
import { useTestApp } from '../../test/test-app'
import { writtenPaper } from '../../test/written-papers'
import { scoreWrittenAnswer, type ScoringRubric } from './written-score'

const MARKS = 20
const CHOICE_RIGHT = 100

type RubricBody = {
  scoring: 'positive' | 'negative'
  floor: number | null
  ceiling: number | null
  groups: { id?: number; title: { en: string }; exclusive: boolean }[]
  items: { id?: number; group_id?: number | null; points: number; title: { en: string } }[]
}

const scoringOf = (rubric: Rubric): ScoringRubric => ({
  scoring: rubric.scoring,
  floor: rubric.floor === null ? null : toHundredths(rubric.floor),
  ceiling: rubric.ceiling === null ? null : toHundredths(rubric.ceiling),
  items: new Map(rubric.items.map((item) => [item.id, { points: toHundredths(item.points), group_id: item.group_id }])),
  groups: new Map(rubric.groups.map((group) => [group.id, { exclusive: group.exclusive }])),
})

/** One random edit of the rubric as read: points, bounds, scoring, texts, groups, additions and deletions. */
function randomEdit(random: () => number, rubric: Rubric): RubricBody {
  const body: RubricBody = {
    scoring: rubric.scoring,
    floor: rubric.floor,
    ceiling: rubric.ceiling,
    groups: rubric.groups.map(({ id, title, exclusive }) => ({ id, title: { en: title.en }, exclusive })),
    items: rubric.items.map(({ id, group_id, points, title }) => ({ id, group_id, points, title: { en: title.en } })),
  }
  const points = () => randomInt(random, -600, 800) / 100
  const item = () => body.items[randomInt(random, 0, body.items.length - 1)]
  const group = () => (body.groups.length === 0 ? null : body.groups[randomInt(random, 0, body.groups.length - 1)]!)
  switch (randomInt(random, 0, 7)) {
    case 0:
      if (body.items.length > 0) item()!.points = points()
      break
    case 1:
      if (body.items.length > 0) body.items.splice(randomInt(random, 0, body.items.length - 1), 1)
      break
    case 2:
      body.items.push({ points: points(), title: { en: `Item ${randomInt(random, 1, 999)}` }, group_id: group()?.id })
      break
    case 3:
      body.scoring = body.scoring === 'positive' ? 'negative' : 'positive'
      break
    case 4: {
      body.floor = random() < 0.3 ? null : randomInt(random, -500, 500) / 100
      const low = body.floor ?? 0
      body.ceiling = random() < 0.3 ? null : randomInt(random, Math.max(toHundredths(low), 0), MARKS * 100) / 100
      if (body.ceiling === null && low > MARKS) body.floor = null
      break
    }
    case 5:
      if (body.items.length > 0) item()!.title = { en: `Renamed ${randomInt(random, 1, 999)}` }
      break
    case 6:
      if (body.items.length > 0) item()!.group_id = group()?.id ?? null
      break
    default: {
      const chosen = group()
      if (chosen) chosen.exclusive = !chosen.exclusive
    }
  }
  return body
}

describe.each(dialects)('re-scoring written answers by rubric edits on %s', (dialect) => {
  const t = useTestApp(dialect)

  it('keeps every stored score equal to the score function of its items, and attempt totals to their released marks, after any sequence of edits (seeded)', async () => {
    const random = seededRandom(0x56)
    const paper = await writtenPaper(t, { marks: MARKS })
    const start = await paper.rubric('PUT', {
      revision: 0,
      groups: [
        { title: { en: 'Conclusion' }, exclusive: true },
        { title: { en: 'Presentation' }, exclusive: false },
      ],
      items: [
        { points: 6, title: { en: 'Basis' } },
        { points: 4, title: { en: 'Example' } },
        { points: 3.5, title: { en: 'Strong conclusion' }, group_index: 0 },
        { points: 1.25, title: { en: 'Weak conclusion' }, group_index: 0 },
        { points: 1, title: { en: 'Neat' }, group_index: 1 },
        { points: -2.5, title: { en: 'Over the limit' }, group_index: 1 },
      ],
    })
    let rubric: Rubric = start.body.rubric
    const answers: { attemptId: number; answerId: number }[] = []
    for (let learner = 0; learner < 8; learner++) {
      const sat = await paper.sit()
      answers.push(sat)
      // Items applied at random, at most one of the exclusive group.
      const items = rubric.items.filter((_, index) => index !== 3 && random() < 0.5).map((item) => item.id)
      await paper.mark(sat.answerId, { items, adjustment: randomInt(random, -100, 100) })
      if (learner === 4) await paper.release()
    }

    const check = async () => {
      const scoring = scoringOf(rubric)
      for (const { attemptId, answerId } of answers) {
        const answer = await t.db
          .selectFrom('written_answers')
          .select(['status', 'score_hundredths', 'adjustment'])
          .where('id', '=', answerId)
          .executeTakeFirstOrThrow()
        const items = await t.db
          .selectFrom('written_answer_items')
          .select('item_id')
          .where('answer_id', '=', answerId)
          .execute()
        const expected = scoreWrittenAnswer(scoring, {
          marks: MARKS * 100,
          items: items.map((row) => row.item_id),
          adjustment: answer.adjustment,
        })
        expect(answer.score_hundredths).toBe(expected)
        const attempt = await t.db
          .selectFrom('attempts')
          .select('score_hundredths')
          .where('id', '=', attemptId)
          .executeTakeFirstOrThrow()
        expect(attempt.score_hundredths).toBe(CHOICE_RIGHT + (answer.status === 'released' ? expected : 0))
        const trail = await t.db
          .selectFrom('written_rescores')
          .select('new_marks')
          .where('answer_id', '=', answerId)
          .orderBy('id', 'desc')
          .executeTakeFirst()
        if (trail) expect(trail.new_marks).toBe(expected)
      }
    }

    await check()
    let applied = 0
    for (let step = 0; step < 36; step++) {
      const response = await paper.rubric('PUT', { ...randomEdit(random, rubric), revision: rubric.revision })
      if (response.status === 400) {
        // Only a group made exclusive over answers holding two of its items is refused; nothing changed then.
        expect(Object.keys(response.body.errors).every((path) => path.endsWith('.exclusive'))).toBe(true)
        expect((await paper.rubric('GET')).body).toEqual(rubric)
        continue
      }
      expect(response.status).toBe(200)
      rubric = response.body.rubric
      applied++
      await check()
    }
    expect(applied).toBeGreaterThan(20)
    expect(await t.db.selectFrom('written_rescores').select('id').execute()).not.toHaveLength(0)
  })
})
