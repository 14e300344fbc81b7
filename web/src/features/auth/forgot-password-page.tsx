import { useMutation } from '@tanstack/react-query'
import type { FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { paths } from '../../lib/paths'
import { authApi } from './auth.api'
import './auth.css'
import { failure, StatusAlert } from './form-field'
import type { ResetPasswordState } from './login-state'
import { PhoneField, usePhoneInput } from './otp-step'

export function Component() {
  const { t } = useTranslation('auth')
  const navigate = useNavigate()
  const phone = usePhoneInput()
  const send = useMutation({
    mutationFn: (number: string) => authApi.sendOtp(number, 'reset'),
    // The phone travels in the URL (WEB.md), so a reload of /reset-password keeps it.
    onSuccess: (_, number) =>
      navigate(paths.resetPassword(number), { state: { otpSent: true } satisfies ResetPasswordState }),
  })

  function submit(event: FormEvent) {
    event.preventDefault()
    if (phone.check()) send.mutate(phone.value)
  }

  return (
    <div className="auth-page">
      <section className="card auth-card" aria-labelledby="forgot-title">
        <h1 id="forgot-title">{t('forgot.title')}</h1>
        <form onSubmit={submit} noValidate>
          <StatusAlert status={send.isError ? failure('forgot.failed', send.error) : null} />
          <p>{t('forgot.intro')}</p>
          <PhoneField id="forgot-phone" {...phone.field} />
          <button type="submit" className="btn btn--primary btn--block" disabled={send.isPending}>
            {t('forgot.submit')}
          </button>
        </form>
        <p className="auth-links">
          <Link to={paths.login()}>{t('forgot.back_to_login')}</Link>
        </p>
      </section>
    </div>
  )
}
