import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ResendCountdown } from './use-resend-countdown'

/** The countdown, then a resend link (every OTP step offers one, WEB.md). `onResend` says whether a code went out. */
export function ResendOtp({ countdown, onResend }: { countdown: ResendCountdown; onResend: () => Promise<boolean> }) {
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
          const sent = await onResend()
          setSending(false)
          if (sent) countdown.start()
        }}
      >
        {t('otp_step.resend')}
      </button>
    </p>
  )
}
