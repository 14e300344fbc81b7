import type { Run } from './draft'

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

export function trimRuns(runs: readonly Run[]): Run[] {
  const text = runs.map((run) => run.text).join('')
  const start = text.length - text.trimStart().length
  const end = text.trimEnd().length
  return sliceRuns(runs, start, end)
}

// In place: copying the runs so far for each further line is quadratic over a 30,000-line question.
export function appendLine(target: Run[], more: readonly Run[]): void {
  if (more.length === 0) return
  if (target.length > 0) target.push({ text: '\n', font: null })
  for (const run of more) target.push(run)
}
