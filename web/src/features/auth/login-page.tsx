import { useMutation } from '@tanstack/react-query'
import type { LoginRequest } from '@quiz/contracts'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate } from 'react-router'
import { paths } from '../../lib/paths'
import { Alert } from '../../components/ui/alert'
import { Field } from '../../components/ui/form/field'
import { PasswordInput } from '../../components/ui/password-input'
import { useLanguage } from '../../i18n/use-bilingual'
import { authApi, startSession } from './auth.api'
import { AuthCard } from './auth-card'
import { failure, formTexts, StatusAlert, useMessageText, type StatusMessage } from './auth-messages'
import { readLoginNotice } from './login-state'
import { OtpLogin, type FlowProps } from './otp-login'

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
    <AuthCard id="login-title" title={t('login.title')}>
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
    </AuthCard>
  )
}

function PasswordLogin({ onSubmit, onSignedIn, adoptLanguage }: FlowProps) {
  const { t } = useTranslation('auth')
  const text = useMessageText()
  // RHF's built-in rules, not zodResolver: the first screen ships without zod, and "required" is all this form checks.
  const form = useForm<LoginRequest>({ defaultValues: { username: '', password: '' }, reValidateMode: 'onSubmit' })
  const { errors } = form.formState
  const login = useMutation({
    mutationFn: async ({ username, password }: LoginRequest) =>
      startSession(await authApi.login(username, password), { adoptLanguage }),
    onSuccess: onSignedIn,
  })

  const status: StatusMessage | null = login.isError ? failure('login.failed', login.error) : null
  return (
    <form
      onSubmit={(event) => {
        onSubmit()
        void form.handleSubmit(({ username, password }) => login.mutate({ username: username.trim(), password }))(event)
      }}
      noValidate
    >
      <StatusAlert status={status} />
      <Field id="login-username" label={t('username')} error={text(errors.username?.message)} required>
        {(control) => (
          <input
            {...control}
            {...form.register('username', { validate: (value) => value.trim() !== '' || formTexts.required })}
            autoComplete="username"
            autoCapitalize="none"
          />
        )}
      </Field>
      <Field id="login-password" label={t('password')} error={text(errors.password?.message)} required>
        {(control) => (
          <PasswordInput
            {...control}
            {...form.register('password', { required: formTexts.required })}
            autoComplete="current-password"
          />
        )}
      </Field>
      <button type="submit" className="btn btn--primary btn--block" disabled={login.isPending}>
        {t('login.submit')}
      </button>
    </form>
  )
}
