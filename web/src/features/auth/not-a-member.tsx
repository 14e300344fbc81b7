import type { TokenPair } from '@quiz/contracts'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/api-error'
import { useBrandName } from '../../components/layout/brand-name'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import '../../i18n/institute.i18n'

/**
 * WEB.md "Institutes": signing in where the account is no member says so in a sentence, and offers "Join" (one tap,
 * with the credentials just checked) where the institute is open, or the way to an invitation where it is not.
 */
// Loaded when a sign-in is refused so (login-page.tsx): the first screen carries neither its code nor its words.
export default function NotAMember({
  error,
  join,
  onJoined,
}: {
  error: ApiError
  /** Joins with the same password or code. */
  join: () => Promise<TokenPair>
  onJoined: (tokens: TokenPair) => Promise<void>
}) {
  const { t } = useTranslation('institute')
  const institute = useBrandName()
  const [pending, setPending] = useState(false)
  const [failed, setFailed] = useState<unknown>(null)
  const closed = failed instanceof ApiError && failed.code === 'registration_closed'
  const canJoin = error.extra.can_join === true && !closed

  async function joinNow() {
    setPending(true)
    setFailed(null)
    try {
      await onJoined(await join())
    } catch (joinError) {
      setFailed(joinError)
      setPending(false)
    }
  }

  return (
    <Alert kind="info">
      <span className="status-line">{t('join.not_a_member', { institute })}</span>
      {canJoin ? (
        <Button type="button" variant="primary" block disabled={pending} onClick={() => void joinNow()}>
          {t('join.join', { institute })}
        </Button>
      ) : (
        <span className="status-line">{t('join.ask_invitation', { institute })}</span>
      )}
      {failed !== null && (
        <span className="status-line" role="alert">
          {t(closed ? 'join.join_closed' : 'join.join_failed', { institute })}
        </span>
      )}
    </Alert>
  )
}
