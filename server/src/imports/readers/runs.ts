import type { Run } from './draft'

/** The runs from character `from` to `to` of their joined text (fonts kept). */
export function sliceRuns(runs: readonly Run[], from: number, to = Infinity): Run[] {
  const out: Run[] = []
  let at = 0
  for (const run of runs) {
    const start = Math.max(from - at, 0)
    const end = Math.min(to - at, run.text.length)
    if (end > start) out.push({ ...run, text: run.text.slice(start, end) })
    at += run.text.length
    if (at >= to) break
  }
  return out
}

/** Runs without white space at either end of their joined text. */
export function trimRuns(runs: readonly Run[]): Run[] {
  const text = runs.map((run) => run.text).join('')
  const start = text.length - text.trimStart().length
  const end = text.trimEnd().length
  return sliceRuns(runs, start, end)
}

/** `a` then a line break then `b` (a question or option over several lines). */
export const joinLines = (a: readonly Run[], b: readonly Run[]): Run[] =>
  a.length === 0 ? [...b] : b.length === 0 ? [...a] : [...a, { text: '\n', font: null }, ...b]
