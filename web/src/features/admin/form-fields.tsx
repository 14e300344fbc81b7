import { useId, type ReactNode } from 'react'
import { ApiError } from '../../api/api-error'

/** The server's validation `errors`, keyed by dotted field path (`options.1.text.en`). */
export type FieldErrors = Record<string, string[]>

export function fieldErrorsOf(error: unknown): FieldErrors {
  return error instanceof ApiError && error.errors ? error.errors : {}
}

/** "questions.3.options: Exactly one option must be correct." lines, one per message, for a list by path. */
export function errorLines(errors: FieldErrors, paths: string[] = Object.keys(errors)): string[] {
  return paths.flatMap((path) => (errors[path] ?? []).map((message) => (path ? `${path}: ${message}` : message)))
}

/** The paths no field on screen shows: they go to the form's summary so that no server message is lost. */
export function unclaimedPaths(errors: FieldErrors, claimed: Iterable<string>): string[] {
  const known = new Set(claimed)
  return Object.keys(errors).filter((path) => !known.has(path))
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

interface TextFieldProps {
  label: ReactNode
  value: string
  onChange: (value: string) => void
  /** Server error messages for this field. */
  errors?: string[]
  hint?: ReactNode
  multiline?: boolean
  rows?: number
  type?: 'text' | 'number' | 'datetime-local'
  lang?: string
  placeholder?: string
  required?: boolean
  className?: string
  /** Monospace input for code (SVG markup). */
  code?: boolean
  children?: ReactNode
}

/** A labelled input or textarea; its hint and server errors are tied to it by aria-describedby. */
export function TextField({
  label,
  value,
  onChange,
  errors = [],
  hint,
  multiline,
  rows,
  type = 'text',
  lang,
  placeholder,
  required,
  className,
  code,
  children,
}: TextFieldProps) {
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy = [hint ? hintId : '', errors.length ? errorId : ''].filter(Boolean).join(' ') || undefined
  const common = {
    id,
    value,
    lang,
    placeholder,
    required,
    className: code ? 'admin-code' : undefined,
    'aria-invalid': errors.length > 0 || undefined,
    'aria-describedby': describedBy,
  }
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea
          {...common}
          rows={rows}
          spellCheck={code ? false : undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      ) : (
        <input
          {...common}
          type={type}
          inputMode={type === 'number' ? 'numeric' : undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {hint && (
        <span id={hintId} className="field__hint">
          {hint}
        </span>
      )}
      {errors.length > 0 && (
        <span id={errorId} className="field__error">
          {errors.join(' ')}
        </span>
      )}
      {children}
    </div>
  )
}
