import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/api-error'
import { Alert } from '../../components/ui/alert'
import { serverMessage, type AuthKey, type FieldMessage } from '../../i18n/auth-texts'

export { formTexts, serverMessage, useMessageText, type AuthKey, type FieldMessage } from '../../i18n/auth-texts'

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
