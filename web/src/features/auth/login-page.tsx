import type { LoginRequest } from '@quiz/contracts'
import { Suspense, use, useRef, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate } from 'react-router'
import { paths } from '../../lib/paths'
import { homeOf, sessionStore } from '../../session/session-store'
import { Alert } from '../../components/ui/alert'
import { Loading } from '../../components/ui/loading'
import { Field } from '../../components/ui/form/field'
import { PasswordInput } from '../../components/ui/password-input'
import { chosenLanguage } from '../../i18n/i18n'
import { useLanguage } from '../../i18n/use-bilingual'
import { authApi, startSession } from './auth.api'
import { AuthCard } from './auth-card'
import { failure, formTexts, StatusAlert, useMessageText, type StatusMessage } from './auth-messages'
import { readLoginNotice } from './login-state'
import { NotAMember } from './lazy-not-a-member'
import { isNotAMember } from './not-a-member-error'
import type { FlowProps } from './otp-login'
import { useHydrated } from '../../lib/use-hydrated'
import { Button } from '../../components/ui/button'

// Login by code, with its react-hook-form forms (12 KB gzipped), is fetched as soon as this screen's code runs
// but not before the password form shows: the first screen stays inside its budget (docs/decisions/012).
// By the time anyone presses "Phone OTP" it is there, and renders at once.
const otpLogin = import('./otp-login')
let loadedOtpLogin: Awaited<typeof otpLogin>['OtpLogin'] | undefined
void otpLogin.then((module) => (loadedOtpLogin = module.OtpLogin))

function LoadedOtpLogin(props: FlowProps) {
  const Loaded = loadedOtpLogin ?? use(otpLogin).OtpLogin
  return <Loaded {...props} />
}

/** On a slow line someone may choose "Phone OTP" before its code has come: a spinner until it has. */
function OtpLogin(props: FlowProps) {
  const { t } = useTranslation()
  return (
    <Suspense fallback={<Loading label={t('loading')} />}>
      <LoadedOtpLogin {...props} />
    </Suspense>
  )
}

type Mode = 'password' | 'otp'

export function Component() {
  const { t } = useTranslation('auth')
  const location = useLocation()
  const navigate = useNavigate()
  const language = useLanguage()
  const [mode, setMode] = useState<Mode>('password')
  const [notice, setNotice] = useState(() => readLoginNotice(location.state))

  // A platform admin on the platform's address lands on its screens (WEB.md "Institutes"), not on a dashboard.
  const onSignedIn = () => navigate(homeOf(sessionStore.user()), { replace: true })
  // The language on screen wins over the profile's and becomes the preference: the one the learner registered
  // in, or the one this visitor chose before logging in. Only a browser that never chose takes the profile's.
  const adoptLanguage =
    readLoginNotice(location.state) === 'registered' || chosenLanguage() !== null ? language : undefined

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

type LoginErrors = Partial<Record<keyof LoginRequest, string>>

/** Two required fields, checked on submit; the first one left empty takes the focus. */
function PasswordLogin({ onSubmit, onSignedIn, adoptLanguage }: FlowProps) {
  const { t } = useTranslation('auth')
  const text = useMessageText()
  const [errors, setErrors] = useState<LoginErrors>({})
  const inputs = { username: useRef<HTMLInputElement>(null), password: useRef<HTMLInputElement>(null) }
  // Plain state rather than TanStack Query's useMutation: the first screen does without that library (decision 025).
  const [pending, setPending] = useState(false)
  const [failed, setFailed] = useState<unknown>(null)
  const [refused, setRefused] = useState<LoginRequest | null>(null)
  const hydrated = useHydrated()

  async function signIn({ username, password }: LoginRequest) {
    setPending(true)
    setFailed(null)
    setRefused({ username, password })
    try {
      await startSession(await authApi.login(username, password), { adoptLanguage })
    } catch (error) {
      setFailed(error)
      setPending(false)
      return
    }
    onSignedIn()
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    onSubmit()
    // Read from the inputs, not from state: the built page's inputs take typing before React hydrates them, and
    // controlled inputs would be emptied by the hydration.
    const values = { username: inputs.username.current?.value ?? '', password: inputs.password.current?.value ?? '' }
    const found: LoginErrors = {
      username: values.username.trim() ? undefined : formTexts.required,
      password: values.password ? undefined : formTexts.required,
    }
    setErrors(found)
    const firstEmpty = (['username', 'password'] as const).find((field) => found[field])
    if (firstEmpty) return inputs[firstEmpty].current?.focus()
    void signIn({ username: values.username.trim(), password: values.password })
  }

  const status: StatusMessage | null = failed && !isNotAMember(failed) ? failure('login.failed', failed) : null
  return (
    <form onSubmit={submit} noValidate>
      <StatusAlert status={status} />
      {isNotAMember(failed) && refused && (
        <NotAMember
          error={failed}
          join={() => authApi.join(refused)}
          onJoined={async (tokens) => {
            await startSession(tokens, { adoptLanguage })
            onSignedIn()
          }}
        />
      )}
      <Field id="login-username" label={t('username')} error={text(errors.username)} required>
        {(control) => (
          <input {...control} ref={inputs.username} name="username" autoComplete="username" autoCapitalize="none" />
        )}
      </Field>
      <Field id="login-password" label={t('password')} error={text(errors.password)} required>
        {(control) => (
          <PasswordInput {...control} ref={inputs.password} name="password" autoComplete="current-password" />
        )}
      </Field>
      <Button type="submit" variant="primary" block disabled={pending || !hydrated}>
        {t('login.submit')}
      </Button>
    </form>
  )
}
