import { useMutation } from '@tanstack/react-query'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate } from 'react-router'
import { paths } from '../../app/paths'
import { Alert } from '../../components/ui/alert'
import { PasswordInput } from '../../components/ui/password-input'
import type { Language } from '../../i18n/i18n'
import { useLanguage } from '../../i18n/use-bilingual'
import { authApi, startSession } from './auth.api'
import './auth.css'
import { failure, Field, StatusAlert, type FieldMessage, type StatusMessage } from './form-field'
import { readLoginNotice } from './login-state'
import { ResendOtp } from './resend-otp'
import { useResendCountdown } from './use-resend-countdown'
import { isValidPhone } from './validation'

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
  const [step, setStep] = useState<'phone' | 'code'>('phone')
  const [phone, setPhone] = useState('')
  const [code, setCode] = useState('')
  const [sentTo, setSentTo] = useState<string | null>(null)
  const [phoneError, setPhoneError] = useState<FieldMessage | null>(null)
  const [codeError, setCodeError] = useState<FieldMessage | null>(null)
  const [status, setStatus] = useState<StatusMessage | null>(null)
  const countdown = useResendCountdown()
  const codeInput = useRef<HTMLInputElement>(null)
  const phoneInput = useRef<HTMLInputElement>(null)
  const firstRender = useRef(true)

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false
      return
    }
    ;(step === 'code' ? codeInput : phoneInput).current?.focus()
  }, [step])

  const send = useMutation({ mutationFn: (number: string) => authApi.sendOtp(number, 'login') })
  const verify = useMutation({
    mutationFn: async () => startSession(await authApi.verifyLoginOtp(phone, code.trim()), { adoptLanguage }),
    onSuccess: onSignedIn,
    onError: (error) => setStatus(failure('login.otp_verify_failed', error)),
  })

  function submitPhone(event: FormEvent) {
    event.preventDefault()
    onSubmit()
    setStatus(null)
    const problem: FieldMessage | null = !phone ? { key: 'required' } : isValidPhone(phone) ? null : { key: 'invalid_phone' }
    setPhoneError(problem)
    if (problem) {
      phoneInput.current?.focus()
      return
    }
    // A code sent to this number less than 60 s ago is still good: go back to it instead of being refused.
    if (sentTo === phone && !countdown.canResend) {
      setStep('code')
      return
    }
    send.mutate(phone, {
      onSuccess: () => {
        setSentTo(phone)
        countdown.start()
        setCode('')
        setCodeError(null)
        setStatus({ kind: 'success', keys: ['otp_step.sent'] })
        setStep('code')
      },
      onError: (error) => setStatus(failure('login.otp_send_failed', error)),
    })
  }

  function submitCode(event: FormEvent) {
    event.preventDefault()
    setStatus(null)
    const problem: FieldMessage | null = code.trim() ? null : { key: 'required' }
    setCodeError(problem)
    if (problem) {
      codeInput.current?.focus()
      return
    }
    verify.mutate()
  }

  async function resend() {
    try {
      await send.mutateAsync(phone)
      setStatus({ kind: 'success', keys: ['otp_step.resent'] })
      return true
    } catch (error) {
      setStatus(failure('login.otp_send_failed', error))
      return false
    }
  }

  if (step === 'phone') {
    return (
      <form onSubmit={submitPhone} noValidate>
        <StatusAlert status={status} />
        <Field id="login-phone" label={t('phone')} error={phoneError} hint={t('phone_hint')}>
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
          {t('login.send_otp')}
        </button>
      </form>
    )
  }

  return (
    <form onSubmit={submitCode} noValidate>
      <StatusAlert status={status} />
      <p>{t('otp_step.code_sent_to', { phone })}</p>
      <Field id="login-otp" label={t('otp')} error={codeError}>
        {(input) => (
          <input
            {...input}
            ref={codeInput}
            name="otp"
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder={t('otp_placeholder')}
            maxLength={6}
            value={code}
            onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
          />
        )}
      </Field>
      <button type="submit" className="btn btn--primary btn--block" disabled={verify.isPending}>
        {t('login.verify')}
      </button>
      <ResendOtp countdown={countdown} onResend={resend} />
      <button
        type="button"
        className="link-button"
        onClick={() => {
          setStatus(null)
          setStep('phone')
        }}
      >
        {t('login.change_phone')}
      </button>
    </form>
  )
}
