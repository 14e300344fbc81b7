import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router'
import { paths } from '../../lib/paths'
import { Alert } from '../../components/ui/alert'
import { PasswordInput } from '../../components/ui/password-input'
import { authApi } from './auth.api'
import './auth.css'
import { failure, Field, serverFieldErrors, StatusAlert, type FieldMessage, type StatusMessage } from './form-field'
import type { LoginState, ResetPasswordState } from './login-state'
import { OtpField } from './otp-step'
import { ResendOtp } from './resend-otp'
import { useResendCountdown } from './use-resend-countdown'
import { isValidPhone, passwordProblem } from './validation'

type ResetField = 'otp' | 'password' | 'password2'
const fieldIds: Record<ResetField, string> = {
  otp: 'reset-otp',
  password: 'reset-password',
  password2: 'reset-password2',
}

export function Component() {
  const { t } = useTranslation('auth')
  const [params] = useSearchParams()
  const phone = params.get('phone')?.trim() ?? ''

  if (!isValidPhone(phone)) {
    return (
      <div className="auth-page">
        <section className="card auth-card" aria-labelledby="reset-title">
          <h1 id="reset-title">{t('reset.title')}</h1>
          <Alert kind="error">{t('reset.missing_phone')}</Alert>
          <Link className="btn btn--primary btn--block" to={paths.forgotPassword()}>
            {t('reset.go_to_forgot')}
          </Link>
        </section>
      </div>
    )
  }
  return <ResetForm phone={phone} />
}

function ResetForm({ phone }: { phone: string }) {
  const { t } = useTranslation('auth')
  const navigate = useNavigate()
  const location = useLocation()
  const [values, setValues] = useState<Record<ResetField, string>>({ otp: '', password: '', password2: '' })
  const [errors, setErrors] = useState<Partial<Record<ResetField, FieldMessage>>>({})
  const [status, setStatus] = useState<StatusMessage | null>(() =>
    (location.state as ResetPasswordState | null)?.otpSent ? { kind: 'success', keys: ['otp_step.sent'] } : null,
  )
  // The code went out just before this screen opened. After a reload the wait starts again, which at worst
  // is longer than the server's own 60 s.
  const countdown = useResendCountdown({ startOnMount: true })

  const reset = useMutation({
    mutationFn: () =>
      authApi.resetPassword({
        phone_number: phone,
        otp: values.otp.trim(),
        password: values.password,
        password2: values.password2,
      }),
    onSuccess: () =>
      navigate(paths.login(), { replace: true, state: { notice: 'password_reset' } satisfies LoginState }),
    onError: (error) => {
      setStatus(failure('reset.failed', error))
      const fields: Partial<Record<ResetField, FieldMessage>> = {}
      for (const [path, message] of Object.entries(serverFieldErrors(error))) {
        if (path === 'otp' || path === 'password' || path === 'password2') fields[path] = message
      }
      setErrors(fields)
    },
  })

  function change(field: ResetField, value: string) {
    setValues((current) => ({ ...current, [field]: value }))
    setErrors((current) => ({ ...current, [field]: undefined }))
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    setStatus(null)
    const found: Partial<Record<ResetField, FieldMessage>> = {}
    for (const field of ['otp', 'password', 'password2'] as const) {
      if (!values[field].trim()) found[field] = { key: 'required' }
    }
    const problem = values.password ? passwordProblem(values.password) : null
    if (problem) found.password = { key: problem }
    const mismatch = values.password2 !== '' && values.password2 !== values.password
    if (mismatch) found.password2 = { key: 'passwords_mismatch' }
    setErrors(found)
    const first = (['otp', 'password', 'password2'] as const).find((field) => found[field])
    if (first) {
      // SPEC.md: a mismatch says "Passwords do not match."; anything else points at the fields.
      setStatus({
        kind: 'error',
        keys: [mismatch && !found.otp && !found.password ? 'passwords_mismatch' : 'fix_errors'],
      })
      document.getElementById(fieldIds[first])?.focus()
      return
    }
    reset.mutate()
  }

  return (
    <div className="auth-page">
      <section className="card auth-card" aria-labelledby="reset-title">
        <h1 id="reset-title">{t('reset.title')}</h1>
        <form onSubmit={submit} noValidate>
          <StatusAlert status={status} />
          <p>{t('otp_step.code_sent_to', { phone })}</p>
          <OtpField id={fieldIds.otp} value={values.otp} onChange={(code) => change('otp', code)} error={errors.otp} />
          <Field
            id={fieldIds.password}
            label={t('reset.new_password')}
            hint={t('password_hint')}
            error={errors.password}
          >
            {(input) => (
              <PasswordInput
                {...input}
                name="password"
                autoComplete="new-password"
                value={values.password}
                onChange={(event) => change('password', event.target.value)}
              />
            )}
          </Field>
          <Field id={fieldIds.password2} label={t('reset.confirm_password')} error={errors.password2}>
            {(input) => (
              <PasswordInput
                {...input}
                name="password2"
                autoComplete="new-password"
                value={values.password2}
                onChange={(event) => change('password2', event.target.value)}
              />
            )}
          </Field>
          <button type="submit" className="btn btn--primary btn--block" disabled={reset.isPending}>
            {t('reset.submit')}
          </button>
          <ResendOtp
            countdown={countdown}
            send={() => authApi.sendOtp(phone, 'reset')}
            onStatus={setStatus}
            resent="reset.resent"
            failed="reset.resend_failed"
          />
        </form>
        <p className="auth-links">
          <Link to={paths.login()}>{t('forgot.back_to_login')}</Link>
        </p>
      </section>
    </div>
  )
}
