import { useMutation } from '@tanstack/react-query'
import { useRef, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { paths } from '../../app/paths'
import { authApi } from './auth.api'
import './auth.css'
import { failure, Field, StatusAlert, type FieldMessage } from './form-field'
import type { ResetPasswordState } from './login-state'
import { isValidPhone } from './validation'

export function Component() {
  const { t } = useTranslation('auth')
  const navigate = useNavigate()
  const [phone, setPhone] = useState('')
  const [phoneError, setPhoneError] = useState<FieldMessage | null>(null)
  const phoneInput = useRef<HTMLInputElement>(null)
  const send = useMutation({
    mutationFn: (number: string) => authApi.sendOtp(number, 'reset'),
    // The phone travels in the URL (WEB.md), so a reload of /reset-password keeps it.
    onSuccess: (_, number) => navigate(paths.resetPassword(number), { state: { otpSent: true } satisfies ResetPasswordState }),
  })

  function submit(event: FormEvent) {
    event.preventDefault()
    const problem: FieldMessage | null = !phone ? { key: 'required' } : isValidPhone(phone) ? null : { key: 'invalid_phone' }
    setPhoneError(problem)
    if (problem) {
      phoneInput.current?.focus()
      return
    }
    send.mutate(phone)
  }

  return (
    <div className="auth-page">
      <section className="card auth-card" aria-labelledby="forgot-title">
        <h1 id="forgot-title">{t('forgot.title')}</h1>
        <form onSubmit={submit} noValidate>
          <StatusAlert status={send.isError ? failure('forgot.failed', send.error) : null} />
          <p>{t('forgot.intro')}</p>
          <Field id="forgot-phone" label={t('phone')} hint={t('phone_hint')} error={phoneError}>
            {(input) => (
              <input
                {...input}
                ref={phoneInput}
                name="phone"
                type="tel"
                inputMode="numeric"
                autoComplete="tel-national"
                value={phone}
                onChange={(event) => setPhone(event.target.value.replace(/\D/g, ''))}
              />
            )}
          </Field>
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
