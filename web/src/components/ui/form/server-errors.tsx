import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form'
import { ApiError } from '../../../api/api-error'

/** The server's validation `errors` (API.md), keyed by dotted field path (`questions.3.options`). */
export type FieldErrors = Record<string, string[]>

export function fieldErrorsOf(error: unknown): FieldErrors {
  return error instanceof ApiError && error.errors ? error.errors : {}
}

/**
 * Puts the first server message of each known path on its form field, where the field shows it like its own
 * check's message. `fields` maps the server's path to the form's field name (`phone_number` -> `phone`).
 * A message about a whole list goes to `root.<name>`. Returns the paths no field claimed, for a summary, so that no server message is lost.
 */
/** The server's paths and the form fields (or `root.<name>` for a message about a whole list) that show them. */
export type ServerFields<T extends FieldValues> = Partial<Record<string, FieldPath<T> | `root.${string}`>>

export function setServerErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  fields: ServerFields<T>,
): string[] {
  const unclaimed: string[] = []
  for (const [path, messages] of Object.entries(fieldErrorsOf(error))) {
    const field = fields[path]
    if (field && messages[0]) setError(field, { type: 'server', message: messages[0] })
    else unclaimed.push(path)
  }
  return unclaimed
}

/**
 * "questions.3.options: Exactly one option must be correct." lines, one per message, for the paths no field on
 * screen shows (`shownByFields`): they go to the form's summary so that no server message is lost.
 */
export function errorLines(errors: FieldErrors, shownByFields: Iterable<string> = []): string[] {
  const shown = new Set(shownByFields)
  return Object.entries(errors)
    .filter(([path]) => !shown.has(path))
    .flatMap(([path, messages]) => messages.map((message) => (path ? `${path}: ${message}` : message)))
}

export function ErrorList({ lines }: { lines: string[] }) {
  if (lines.length === 0) return null
  return (
    <ul>
      {lines.map((line, index) => (
        <li key={index}>{line}</li>
      ))}
    </ul>
  )
}
