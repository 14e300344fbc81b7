import type { FieldErrors } from '../http/errors'
import { describeProblem, renderMaths } from './render-maths'

/**
 * The maths refusals of some texts, keyed by their field paths (`options.2.text.ne`): what the question routes and
 * create-from-JSON check before anything is stored, and what an import checks per row. Values that are not strings
 * are skipped: validation reports those.
 */
export function checkMaths(texts: Iterable<readonly [path: string, text: unknown]>): FieldErrors {
  const errors: FieldErrors = {}
  for (const [path, text] of texts) {
    if (typeof text !== 'string') continue
    const result = renderMaths(text)
    if (!result.ok) (errors[path] ??= []).push(describeProblem(result))
  }
  return errors
}
