import type { z, ZodType } from 'zod'
import { ValidationFailed, type FieldErrors } from './errors'

// Keyed by dotted path (`questions.3.options`); the root is `non_field_errors`.
export function zodFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const errors: FieldErrors = {}
  for (const issue of issues) (errors[issue.path.join('.') || 'non_field_errors'] ??= []).push(issue.message)
  return errors
}

export function parseFields<S extends ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input)
  if (!parsed.success) throw new ValidationFailed(zodFieldErrors(parsed.error.issues))
  return parsed.data
}
