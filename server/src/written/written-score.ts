// The score of a written answer, in hundredths: the one rule every mark and re-score uses (docs/decisions/065).

export interface ScoringRubric {
  scoring: 'positive' | 'negative'
  /** Null: 0. */
  floor: number | null
  /** Null: the question's marks. */
  ceiling: number | null
  /** Every item of the rubric: its signed points and its group. */
  items: ReadonlyMap<number, { points: number; group_id: number | null }>
  /** Groups by id; an exclusive one allows one of its items per answer. */
  groups: ReadonlyMap<number, { exclusive: boolean }>
}

export interface ScoredWrittenAnswer {
  /** The marks of the answer's question revision. */
  marks: number
  /** Item ids applied; order and repeats do not matter. */
  items: Iterable<number>
  adjustment: number
}

export class RubricClash extends Error {
  constructor(
    readonly kind: 'unknown_item' | 'exclusive_group',
    readonly ids: readonly number[],
  ) {
    super(
      kind === 'unknown_item' ? `no rubric item ${ids.join(', ')}` : `items ${ids.join(', ')} share an exclusive group`,
    )
  }
}

export const boundsOf = (rubric: Pick<ScoringRubric, 'floor' | 'ceiling'>, marks: number) => ({
  floor: rubric.floor ?? 0,
  ceiling: rubric.ceiling ?? marks,
})

/** Items of one exclusive group applied together, as [groupId, itemIds]; empty when none clash. */
export function exclusiveClashes(rubric: ScoringRubric, items: Iterable<number>): [number, number[]][] {
  const byGroup = new Map<number, number[]>()
  for (const id of new Set(items)) {
    const groupId = rubric.items.get(id)?.group_id
    if (groupId === null || groupId === undefined || !rubric.groups.get(groupId)?.exclusive) continue
    byGroup.set(groupId, [...(byGroup.get(groupId) ?? []), id])
  }
  return [...byGroup].filter(([, ids]) => ids.length > 1)
}

/** Positive scoring starts at 0, negative at the marks; items' points and the adjustment add; clamped to the bounds. */
export function scoreWrittenAnswer(rubric: ScoringRubric, answer: ScoredWrittenAnswer): number {
  const items = new Set(answer.items)
  const unknown = [...items].filter((id) => !rubric.items.has(id))
  if (unknown.length > 0) throw new RubricClash('unknown_item', unknown)
  const clash = exclusiveClashes(rubric, items)[0]
  if (clash) throw new RubricClash('exclusive_group', clash[1])
  let raw = (rubric.scoring === 'negative' ? answer.marks : 0) + answer.adjustment
  for (const id of items) raw += rubric.items.get(id)!.points
  const { floor, ceiling } = boundsOf(rubric, answer.marks)
  return Math.min(Math.max(raw, floor), Math.max(floor, ceiling))
}
