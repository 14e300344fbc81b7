import { describe, expect, it } from 'vitest'
import { randomInt, seededRandom } from '../../test/fixtures/seeded-random'
import { exclusiveClashes, RubricClash, scoreWrittenAnswer, type ScoringRubric } from './written-score'

const rubric = (overrides: Partial<ScoringRubric> = {}): ScoringRubric => ({
  scoring: 'positive',
  floor: null,
  ceiling: null,
  items: new Map([
    [1, { points: 300, group_id: null }],
    [2, { points: 250, group_id: 10 }],
    [3, { points: 100, group_id: 10 }],
    [4, { points: -150, group_id: 11 }],
    [5, { points: -400, group_id: 11 }],
  ]),
  groups: new Map([
    [10, { exclusive: true }],
    [11, { exclusive: false }],
  ]),
  ...overrides,
})

/** A random rubric and a random valid answer to it (no two items of one exclusive group). */
function randomCase(random: () => number) {
  const marks = randomInt(random, 50, 10_000)
  const groups = new Map<number, { exclusive: boolean }>()
  for (let id = 1; id <= randomInt(random, 0, 4); id++) groups.set(id, { exclusive: random() < 0.5 })
  const items = new Map<number, { points: number; group_id: number | null }>()
  for (let id = 1; id <= randomInt(random, 0, 12); id++) {
    const group = randomInt(random, 0, groups.size)
    items.set(id, { points: randomInt(random, -10_000, 10_000), group_id: group === 0 ? null : group })
  }
  const floor = random() < 0.5 ? null : randomInt(random, -marks, marks)
  const low = floor ?? 0
  const ceiling = random() < 0.5 ? null : randomInt(random, Math.max(low, 0), marks)
  const scored: ScoringRubric = { scoring: random() < 0.5 ? 'positive' : 'negative', floor, ceiling, items, groups }
  const applied: number[] = []
  const usedExclusive = new Set<number>()
  for (const [id, item] of items) {
    if (random() < 0.5) continue
    if (item.group_id !== null && groups.get(item.group_id)!.exclusive) {
      if (usedExclusive.has(item.group_id)) continue
      usedExclusive.add(item.group_id)
    }
    applied.push(id)
  }
  return { rubric: scored, marks, applied, adjustment: randomInt(random, -10_000, 10_000) }
}

describe('scoreWrittenAnswer', () => {
  it('adds applied items to 0 under positive scoring, and takes them from the marks under negative scoring', () => {
    expect(scoreWrittenAnswer(rubric(), { marks: 1000, items: [1, 2], adjustment: 0 })).toBe(550)
    expect(scoreWrittenAnswer(rubric({ scoring: 'negative' }), { marks: 1000, items: [4], adjustment: 0 })).toBe(850)
    expect(scoreWrittenAnswer(rubric(), { marks: 1000, items: [], adjustment: 25 })).toBe(25)
  })

  it('clamps to 0 and the marks by default, and to the rubric floor and ceiling when set', () => {
    expect(scoreWrittenAnswer(rubric(), { marks: 500, items: [1, 2], adjustment: 0 })).toBe(500)
    expect(scoreWrittenAnswer(rubric(), { marks: 500, items: [5], adjustment: 0 })).toBe(0)
    expect(scoreWrittenAnswer(rubric({ floor: -200 }), { marks: 500, items: [5], adjustment: 0 })).toBe(-200)
    expect(scoreWrittenAnswer(rubric({ ceiling: 400 }), { marks: 500, items: [1, 2], adjustment: 0 })).toBe(400)
  })

  it('refuses two items of one exclusive group and an item not in the rubric', () => {
    expect(() => scoreWrittenAnswer(rubric(), { marks: 1000, items: [2, 3], adjustment: 0 })).toThrow(RubricClash)
    expect(() => scoreWrittenAnswer(rubric(), { marks: 1000, items: [9], adjustment: 0 })).toThrow(RubricClash)
    // Two items of a group that is not exclusive are allowed.
    expect(scoreWrittenAnswer(rubric({ floor: -1000 }), { marks: 1000, items: [4, 5], adjustment: 0 })).toBe(-550)
    expect(exclusiveClashes(rubric(), [2, 3, 1])).toEqual([[10, [2, 3]]])
  })

  it('keeps every score within its bounds, whole hundredths, whatever the rubric and items (seeded)', () => {
    const random = seededRandom(56)
    for (let run = 0; run < 2_000; run++) {
      const { rubric: scored, marks, applied, adjustment } = randomCase(random)
      const score = scoreWrittenAnswer(scored, { marks, items: applied, adjustment })
      const floor = scored.floor ?? 0
      expect(Number.isInteger(score)).toBe(true)
      expect(score).toBeGreaterThanOrEqual(floor)
      expect(score).toBeLessThanOrEqual(Math.max(floor, scored.ceiling ?? marks))
    }
  })

  it('gives the same score whatever the order of the items and however often one is repeated (seeded)', () => {
    const random = seededRandom(65)
    for (let run = 0; run < 1_000; run++) {
      const { rubric: scored, marks, applied, adjustment } = randomCase(random)
      const once = scoreWrittenAnswer(scored, { marks, items: applied, adjustment })
      const shuffled = [...applied, ...applied.filter(() => random() < 0.5)].sort(() => random() - 0.5)
      expect(scoreWrittenAnswer(scored, { marks, items: shuffled, adjustment })).toBe(once)
    }
  })

  it('is the unclamped sum whenever that sum lies within the bounds, and moves with each item (seeded)', () => {
    const random = seededRandom(2026)
    for (let run = 0; run < 1_000; run++) {
      const { rubric: scored, marks, applied, adjustment } = randomCase(random)
      const raw =
        (scored.scoring === 'negative' ? marks : 0) +
        adjustment +
        applied.reduce((sum, id) => sum + scored.items.get(id)!.points, 0)
      const floor = scored.floor ?? 0
      const ceiling = Math.max(floor, scored.ceiling ?? marks)
      const score = scoreWrittenAnswer(scored, { marks, items: applied, adjustment })
      expect(score).toBe(raw < floor ? floor : raw > ceiling ? ceiling : raw)
    }
  })
})
