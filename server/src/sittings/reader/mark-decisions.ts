/** Over about half filled is a mark; under about a fifth is not; between is unclear (API.md "Paper sittings"). */
export const MARK_FILL = 0.5
export const BLANK_FILL = 0.2

export type Choice<T> =
  | { kind: 'one'; value: T }
  | { kind: 'none' }
  // `doubtful`: bubbles between blank and filled beside the marks (only when some are): a multiple question's row
  // with them is unclear, where one without them is its answer (decision 129).
  | { kind: 'multiple'; marks: T[]; doubtful?: T[] }
  | { kind: 'unclear'; marks: T[] }

export function decideChoice<T>(options: readonly { value: T; fill: number }[]): Choice<T> {
  const marked = options.filter((o) => o.fill >= MARK_FILL).map((o) => o.value)
  const doubtful = options.filter((o) => o.fill >= BLANK_FILL && o.fill < MARK_FILL).map((o) => o.value)
  if (marked.length >= 2)
    return doubtful.length > 0 ? { kind: 'multiple', marks: marked, doubtful } : { kind: 'multiple', marks: marked }
  if (doubtful.length > 0)
    return { kind: 'unclear', marks: options.filter((o) => o.fill >= BLANK_FILL).map((o) => o.value) }
  if (marked.length === 1) return { kind: 'one', value: marked[0]! }
  return { kind: 'none' }
}
