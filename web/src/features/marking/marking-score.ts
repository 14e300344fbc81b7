import type { MarkingRubric } from './marking.api'

/**
 * The running total as the server will score it (docs/decisions/065): positive scoring starts at 0, negative at the
 * question's marks; the items' signed points and the adjustment add; the sum is clamped to [floor, ceiling].
 * In hundredths while adding, so 0.1 + 0.2 shows 0.3.
 */
export function runningTotal(rubric: MarkingRubric, applied: ReadonlySet<number>, adjustment: number): number {
  const hundredths = (value: number) => Math.round(value * 100)
  let raw = (rubric.scoring === 'negative' ? hundredths(rubric.marks) : 0) + hundredths(adjustment)
  for (const item of rubric.items) if (applied.has(item.id)) raw += hundredths(item.points)
  const floor = hundredths(rubric.floor)
  const ceiling = Math.max(floor, hundredths(rubric.ceiling))
  return Math.min(Math.max(raw, floor), ceiling) / 100
}

/**
 * Applies or removes an item; applying one of an exclusive group removes the group's other item (one per answer),
 * so a marker switching "Good intro" to "Weak intro" needs one key, not two.
 */
export function toggleItem(rubric: MarkingRubric, applied: ReadonlySet<number>, itemId: number): Set<number> {
  const next = new Set(applied)
  if (next.has(itemId)) {
    next.delete(itemId)
    return next
  }
  const item = rubric.items.find((candidate) => candidate.id === itemId)
  if (!item) return next
  const group = rubric.groups.find((candidate) => candidate.id === item.group_id)
  if (group?.exclusive) {
    for (const other of rubric.items) if (other.group_id === group.id) next.delete(other.id)
  }
  next.add(itemId)
  return next
}

/** Signed points as a marker reads them: "+2", "−1.5". */
export function signedPoints(points: number, format: (value: number) => string): string {
  return points > 0 ? `+${format(points)}` : points < 0 ? `−${format(-points)}` : format(0)
}
