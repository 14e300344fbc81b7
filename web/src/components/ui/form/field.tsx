import { useId, type ReactNode } from 'react'

/** What a field hands its control: the id its label points at and the ARIA state of its message. */
export interface FieldControlProps {
  id: string
  required?: true
  'aria-invalid': boolean
  'aria-describedby'?: string
}

/** A positive or progress note (an availability check), shown when there is no error. */
export interface FieldStatus {
  tone: 'ok' | 'info'
  text: string
}

export interface FieldProps {
  /** Defaults to a generated id; pass one when a test or a focus call needs it. */
  id?: string
  label: ReactNode
  /** The message shown under the control, already in the learner's language. */
  error?: string | null
  status?: FieldStatus | null
  hint?: ReactNode
  required?: boolean
  className?: string
  children: (control: FieldControlProps) => ReactNode
  /** Anything shown after the message (an SVG preview, say). */
  footer?: ReactNode
}

/**
 * A labelled form field: the control, its hint, and one message line tied to the control by aria-describedby.
 * The message line is a polite live region, so a screen reader hears a message appear or change.
 */
export function Field({ id, label, error, status, hint, required, className, children, footer }: FieldProps) {
  const generated = useId()
  const controlId = id ?? generated
  const hintId = `${controlId}-hint`
  const messageId = `${controlId}-message`
  const describedBy = [hint ? hintId : '', error || status ? messageId : ''].filter(Boolean).join(' ')
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={controlId}>{label}</label>
      {children({
        id: controlId,
        ...(required ? { required: true } : {}),
        'aria-invalid': Boolean(error),
        'aria-describedby': describedBy || undefined,
      })}
      {hint && (
        <span id={hintId} className="field__hint">
          {hint}
        </span>
      )}
      <span
        id={messageId}
        aria-live="polite"
        className={error ? 'field__error' : status?.tone === 'ok' ? 'field__ok' : 'field__hint'}
      >
        {error || status?.text}
      </span>
      {footer}
    </div>
  )
}
