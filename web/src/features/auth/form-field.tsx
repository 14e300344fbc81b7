import type { ParseKeys } from 'i18next'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/api-error'
import { Alert } from '../../components/ui/alert'

export type AuthKey = ParseKeys<'auth'>

/** A message for a field: one of ours (re-translated when the language changes) or a server text we do not know. */
export type FieldMessage = { key: AuthKey } | { text: string }

/** The server's texts (contracts' messages) that we show in the learner's language. */
const knownServerTexts: Record<string, AuthKey> = {
  'This field is required.': 'required',
  'This field may not be blank.': 'required',
  'Please enter a valid 10-digit phone number.': 'invalid_phone',
  'Passwords do not match.': 'passwords_mismatch',
  'Username must be 3 to 30 characters long.': 'server.username_length',
  'Username may contain only letters, digits, ".", "_" and "-".': 'server.username_characters',
  'A user with that username already exists.': 'server.username_taken',
  'Phone number is already registered.': 'server.phone_taken',
  'This password is too short. It must contain at least 8 characters.': 'server.password_short',
  'This password is entirely numeric.': 'server.password_numeric',
  'This password is too common.': 'server.password_common',
  'The password is too similar to the username.': 'server.password_similar',
  'Phone number has not been verified.': 'server.phone_not_verified',
}

export function serverMessage(text: string): FieldMessage {
  const key = knownServerTexts[text]
  return key ? { key } : { text }
}

/** The first message per field of a 400's `errors` map (API.md), keyed by field path. */
export function serverFieldErrors(error: unknown): Record<string, FieldMessage> {
  if (!(error instanceof ApiError) || !error.errors) return {}
  const fields: Record<string, FieldMessage> = {}
  for (const [path, texts] of Object.entries(error.errors)) {
    if (texts[0]) fields[path] = serverMessage(texts[0])
  }
  return fields
}

export const isRateLimited = (error: unknown) => error instanceof ApiError && error.status === 429

export function useMessageText() {
  const { t } = useTranslation('auth')
  return (message: FieldMessage | null | undefined) =>
    !message ? '' : 'key' in message ? t(message.key) : message.text
}

export interface FieldInputProps {
  id: string
  required: true
  'aria-invalid': boolean
  'aria-describedby'?: string
}

/** A positive or progress note (an availability check), shown when there is no error. */
export interface FieldStatus {
  tone: 'ok' | 'info'
  text: string
}

interface FieldProps {
  id: string
  label: string
  error?: FieldMessage | null
  status?: FieldStatus | null
  hint?: string
  children: (input: FieldInputProps) => ReactNode
}

/** A labelled, required form field with its hint and one message line that screen readers hear when it changes. */
export function Field({ id, label, error, status, hint, children }: FieldProps) {
  const text = useMessageText()
  const hintId = `${id}-hint`
  const messageId = `${id}-message`
  const describedBy = [hint ? hintId : '', error || status ? messageId : ''].filter(Boolean).join(' ')
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, required: true, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy || undefined })}
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
        {error ? text(error) : status?.text}
      </span>
    </div>
  )
}

/** One screen message built from our keys, shown with the shared alert (errors are announced at once). */
export interface StatusMessage {
  kind: 'success' | 'error' | 'info'
  keys: AuthKey[]
}

export function StatusAlert({ status }: { status: StatusMessage | null }) {
  const { t } = useTranslation('auth')
  if (!status) return null
  return (
    <Alert kind={status.kind}>
      {status.keys.map((key) => (
        <span key={key} className="status-line">
          {t(key)}
        </span>
      ))}
    </Alert>
  )
}

/** The screen's failure message, plus a note when the server said "too many attempts" (429). */
export function failure(key: AuthKey, error: unknown): StatusMessage {
  return { kind: 'error', keys: isRateLimited(error) ? [key, 'rate_limited'] : [key] }
}
