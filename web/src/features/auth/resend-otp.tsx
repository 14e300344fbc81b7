import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { failure, type AuthKey, type StatusMessage } from './auth-messages'
import type { ResendCountdown } from './use-resend-countdown'

interface ResendOtpProps {
  countdown: ResendCountdown
  send: () => Promise<unknown>
  /** Shows the screen's message: `resent` once a code went out, `failed` when none did. */
  onStatus: (status: StatusMessage) => void
  resent?: AuthKey
  failed: AuthKey
}

/** The countdown, then a resend link (every OTP step offers one, WEB.md). */
export function ResendOtp({ countdown, send, onStatus, resent = 'otp_step.resent', failed }: ResendOtpProps) {
  const { t } = useTranslation('auth')
  const [sending, setSending] = useState(false)
  if (!countdown.canResend) {
    return <p className="resend-otp muted">{t('otp_step.resend_in', { seconds: countdown.secondsLeft })}</p>
  }
  return (
    <p className="resend-otp">
      <button
        type="button"
        className="link-button"
        disabled={sending}
        onClick={async () => {
          setSending(true)
          try {
            await send()
            onStatus({ kind: 'success', keys: [resent] })
            countdown.start()
          } catch (error) {
            onStatus(failure(failed, error))
          }
          setSending(false)
        }}
      >
        {t('otp_step.resend')}
      </button>
    </p>
  )
}
