import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate } from 'react-router'
import { paths } from '../../lib/paths'
import { Alert } from '../../components/ui/alert'
import { PasswordInput } from '../../components/ui/password-input'
import type { Language } from '../../i18n/i18n'
import { useLanguage } from '../../i18n/use-bilingual'
import { authApi, startSession } from './auth.api'
import './auth.css'
import { failure, Field, StatusAlert, type FieldMessage, type StatusMessage } from './form-field'
import { readLoginNotice } from './login-state'
import { OtpCodeForm, PhoneField, useOtpFlow, usePhoneInput } from './otp-step'

type Mode = 'password' | 'otp'

export function Component() {
  const { t } = useTranslation('auth')
  const location = useLocation()
  const navigate = useNavigate()
  const language = useLanguage()
  const [mode, setMode] = useState<Mode>('password')
  const [notice, setNotice] = useState(() => readLoginNotice(location.state))

  const onSignedIn = () => navigate(paths.home(), { replace: true })
  // Right after registration, the language the learner registered in becomes their preference.
  const adoptLanguage = readLoginNotice(location.state) === 'registered' ? language : undefined

  return (
    <div className="auth-page">
      <section className="card auth-card" aria-labelledby="login-title">
        <h1 id="login-title">{t('login.title')}</h1>
        {notice && <Alert kind="success">{t(`notice.${notice}`)}</Alert>}
        <div className="segmented" role="group" aria-label={t('login.mode')}>
          {(['password', 'otp'] as const).map((choice) => (
            <button
              key={choice}
              type="button"
              aria-pressed={mode === choice}
              onClick={() => {
                setMode(choice)
                setNotice(null)
              }}
            >
              {choice === 'password' ? t('login.mode_password') : t('login.mode_otp')}
            </button>
          ))}
        </div>
        {mode === 'password' ? (
          <PasswordLogin onSubmit={() => setNotice(null)} onSignedIn={onSignedIn} adoptLanguage={adoptLanguage} />
        ) : (
          <OtpLogin onSubmit={() => setNotice(null)} onSignedIn={onSignedIn} adoptLanguage={adoptLanguage} />
        )}
        <div className="auth-links">
          <Link to={paths.forgotPassword()}>{t('login.forgot_password')}</Link>
          <p>
            {t('login.no_account')} <Link to={paths.register()}>{t('login.register_link')}</Link>
          </p>
        </div>
      </section>
    </div>
  )
}

interface FlowProps {
  onSubmit: () => void
  onSignedIn: () => void
  adoptLanguage?: Language
}

function PasswordLogin({ onSubmit, onSignedIn, adoptLanguage }: FlowProps) {
  const { t } = useTranslation('auth')
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<{ username?: FieldMessage; password?: FieldMessage }>({})
  const login = useMutation({
    mutationFn: async () => startSession(await authApi.login(username.trim(), password), { adoptLanguage }),
    onSuccess: onSignedIn,
  })

  function submit(event: FormEvent) {
    event.preventDefault()
    onSubmit()
    const missing = {
      ...(username.trim() ? {} : { username: { key: 'required' } as const }),
      ...(password ? {} : { password: { key: 'required' } as const }),
    }
    setErrors(missing)
    if (Object.keys(missing).length > 0) {
      document.getElementById(missing.username ? 'login-username' : 'login-password')?.focus()
      return
    }
    login.mutate()
  }

  const status: StatusMessage | null = login.isError ? failure('login.failed', login.error) : null
  return (
    <form onSubmit={submit} noValidate>
      <StatusAlert status={status} />
      <Field id="login-username" label={t('username')} error={errors.username}>
        {(input) => (
          <input
            {...input}
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
        )}
      </Field>
      <Field id="login-password" label={t('password')} error={errors.password}>
        {(input) => (
          <PasswordInput
            {...input}
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
      </Field>
      <button type="submit" className="btn btn--primary btn--block" disabled={login.isPending}>
        {t('login.submit')}
      </button>
    </form>
  )
}

function OtpLogin({ onSubmit, onSignedIn, adoptLanguage }: FlowProps) {
  const { t } = useTranslation('auth')
  const phone = usePhoneInput()
  const flow = useOtpFlow({ purpose: 'login', sendFailed: 'login.otp_send_failed', startFocus: phone.field.inputRef })
  const verify = useMutation({
    mutationFn: async () =>
      startSession(await authApi.verifyLoginOtp(phone.value, flow.code.value.trim()), { adoptLanguage }),
    onSuccess: onSignedIn,
    onError: (error) => flow.setStatus(failure('login.otp_verify_failed', error)),
  })

  function submitPhone(event: FormEvent) {
    event.preventDefault()
    onSubmit()
    flow.setStatus(null)
    if (phone.check()) flow.sendCode(phone.value)
  }

  if (flow.step === 'code') {
    return (
      <OtpCodeForm
        flow={flow}
        id="login-otp"
        phone={phone.value}
        submitLabel={t('login.verify')}
        backLabel={t('login.change_phone')}
        busy={verify.isPending}
        onVerify={() => verify.mutate()}
      />
    )
  }
  return (
    <form onSubmit={submitPhone} noValidate>
      <StatusAlert status={flow.status} />
      <PhoneField id="login-phone" {...phone.field} />
      <button type="submit" className="btn btn--primary btn--block" disabled={flow.isSending}>
        {t('login.send_otp')}
      </button>
    </form>
  )
}
