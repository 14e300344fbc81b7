import type { FieldErrors } from '../http/errors'
import { describeProblem, renderMaths } from './render-maths'

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

// A 500-question paper can hold thousands of formulas (0.1 to 0.4 ms each): learners' requests flow between slices.
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
