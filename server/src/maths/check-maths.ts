import type { FieldErrors } from '../http/errors'
import { describeProblem, renderMaths } from './render-maths'

/**
 * The maths refusals of some texts, keyed by their field paths (`options.2.text.ne`): what the question routes and
 * create-from-JSON check before anything is stored, and what an import checks per row. Values that are not strings
 * are skipped: validation reports those.
 */
export function checkMaths(texts: Iterable<readonly [path: string, text: unknown]>): FieldErrors {
  const errors: FieldErrors = {}
  for (const [path, text] of texts) check(errors, path, text)
  return errors
}

function check(errors: FieldErrors, path: string, text: unknown) {
  if (typeof text !== 'string') return
  const result = renderMaths(text)
  if (!result.ok) (errors[path] ??= []).push(describeProblem(result))
}

// Longest stretch of rendering between two turns of the event loop (as SVG sanitising does, decision 007).
const SLICE_MS = 20
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * checkMaths for a whole paste: a 500-question paper can hold thousands of formulas (0.1 to 0.4 ms each), so the
 * work is cut into slices with the event loop free in between, and learners' requests keep flowing.
 */
export async function checkMathsInSlices(texts: Iterable<readonly [path: string, text: unknown]>) {
  const errors: FieldErrors = {}
  let sliceStart = performance.now()
  for (const [path, text] of texts) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTurn()
      sliceStart = performance.now()
    }
    check(errors, path, text)
  }
  return errors
}
