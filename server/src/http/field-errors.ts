import type { z, ZodType } from 'zod'
import { ValidationFailed, type FieldErrors } from './errors'

/** A zod failure's issues as API.md's field errors, keyed by dotted path (`questions.3.options`; the root is `non_field_errors`). */
export function zodFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const errors: FieldErrors = {}
  for (const issue of issues) (errors[issue.path.join('.') || 'non_field_errors'] ??= []).push(issue.message)
  return errors
}

/** Parses what a route read itself (a multipart form's fields): its value, or 400 with every problem at its path. */
export function parseFields<S extends ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input)
  if (!parsed.success) throw new ValidationFailed(zodFieldErrors(parsed.error.issues))
  return parsed.data
}
