import { isValidPhone } from '@quiz/contracts/rules/identity'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useForm, type FieldErrors } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { ApiError } from '../../api/api-error'
import { paths } from '../../lib/paths'
import { PasswordInput } from '../../components/ui/password-input'
import { authApi } from './auth.api'
import { authKeys, authQueries, type AvailabilityKind } from './availability'
import { AuthCard } from './auth-card'
import { Field } from '../../components/ui/form/field'
import { fieldErrorsOf, setServerErrors } from '../../components/ui/form/server-errors'
import { failure, StatusAlert, useMessageText, type FieldMessage } from './auth-messages'
import { registerForm } from './auth-resolvers'
import type { LoginState } from './login-state'
import { OtpCodeForm, PhoneField, useOtpFlow } from './otp-step'
import { useDebouncedValue } from './use-debounced-value'
import { passwordProblem, usernameProblem } from './validation'
import { WithQueries } from '../../api/with-queries'
import { useHydrated } from '../../lib/use-hydrated'
import { Button } from '../../components/ui/button'

/** SPEC.md: username and phone availability are checked 500 ms after typing stops. */
export const AVAILABILITY_DEBOUNCE_MS = 500

type DetailField = 'username' | 'phone' | 'password' | 'password2'
const detailFields: DetailField[] = ['username', 'phone', 'password', 'password2']
const fieldIds: Record<DetailField, string> = {
  username: 'register-username',
  phone: 'register-phone',
  password: 'register-password',
  password2: 'register-password2',
}
/** The server names fields as API.md does. */
const fromServerField: Partial<Record<string, DetailField>> = {
  username: 'username',
  phone_number: 'phone',
  password: 'password',
  password2: 'password2',
}

type Availability = 'idle' | 'checking' | 'taken' | 'available'

/**
 * Whether `value` is taken, asked once it has stayed unchanged for 500 ms. The query key follows the live
 * value, so an answer for an older value is never shown, and a check run on submit shows at once.
 */
function useAvailability(kind: AvailabilityKind, value: string, enabled: boolean): Availability {
  const settled = useDebouncedValue(value, AVAILABILITY_DEBOUNCE_MS) === value
  const query = useQuery({ ...authQueries.exists(kind, value), enabled: enabled && settled })
  if (!enabled) return 'idle'
  if (query.data !== undefined) return query.data ? 'taken' : 'available'
  return query.fetchStatus === 'fetching' ? 'checking' : 'idle'
}

type RegisterValues = Record<DetailField, string>

function Screen() {
  const { t } = useTranslation('auth')
  const text = useMessageText()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const form = useForm<RegisterValues>({
    resolver: registerForm.resolver,
    defaultValues: { username: '', phone: '', password: '', password2: '' },
    // The fields' messages follow the values as they are typed (below); the schema decides on submit.
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
  })
  const { errors, touchedFields, isSubmitted, isSubmitting } = form.formState
  // The live values drive the availability checks and the messages as typed. (A subscription rather than
  // useWatch, which would add to react-hook-form's code on the first screen.)
  const [values, setValues] = useState<RegisterValues>(() => ({ ...form.getValues() }))
  useEffect(
    () =>
      form.subscribe({
        formState: { values: true },
        callback: (state) => setValues({ ...state.values }),
      }),
    [form],
  )
  // The phone this visit has already verified: a refused registration is corrected and sent again without a new code.
  const [verifiedPhone, setVerifiedPhone] = useState<string | null>(null)
  const stepHeading = useRef<HTMLHeadingElement>(null)
  const flow = useOtpFlow({
    purpose: 'register',
    sendFailed: 'register.otp_send_failed',
    focusStart: () => stepHeading.current?.focus(),
    clearErrorOnChange: true,
  })
  const { setStatus } = flow

  const username = values.username.trim()
  const { phone, password, password2 } = values
  const usernameRule = username ? usernameProblem(username) : null
  const usernameSettled = useDebouncedValue(username, AVAILABILITY_DEBOUNCE_MS) === username
  const phoneSettled = useDebouncedValue(phone, AVAILABILITY_DEBOUNCE_MS) === phone
  const phoneValid = isValidPhone(phone)
  const usernameStatus = useAvailability('username', username, username !== '' && !usernameRule)
  const phoneStatus = useAvailability('phone', phone, phoneValid)

  /**
   * A message the server or the last submit gave the field stays until the field is edited; otherwise the field
   * speaks for its value as typed: after blur or a submit, or once the value has settled for 500 ms.
   */
  function errorOf(field: DetailField): FieldMessage | string | null {
    const given = errors[field]?.message
    if (given) return given
    const shown = isSubmitted || isSubmitting || Boolean(touchedFields[field])
    const value = values[field]
    if (!value.trim()) return shown ? { key: 'required' } : null
    switch (field) {
      case 'username':
        if (usernameRule) return shown || usernameSettled ? { key: usernameRule } : null
        return usernameStatus === 'taken' ? { key: 'register.username_taken' } : null
      case 'phone':
        if (!phoneValid) return shown || phoneSettled ? { key: 'invalid_phone' } : null
        return phoneStatus === 'taken' ? { key: 'register.phone_taken' } : null
      case 'password': {
        const problem = passwordProblem(password, username)
        return problem && shown ? { key: problem } : null
      }
      case 'password2':
        return password2 !== password && (shown || password2.length >= password.length)
          ? { key: 'passwords_mismatch' }
          : null
    }
  }

  const availabilityStatus = (
    state: Availability,
    available: 'register.username_available' | 'register.phone_available',
  ) =>
    state === 'checking'
      ? { tone: 'info' as const, text: t('register.checking') }
      : state === 'available'
        ? { tone: 'ok' as const, text: t(available) }
        : null

  /** Editing a field drops its message (the server's or the last submit's) and the screen's error line. */
  const field = (name: DetailField) =>
    form.register(name, {
      onChange: () => {
        setStatus((current) => (current?.kind === 'error' ? null : current))
        form.clearErrors(name === 'password' ? ['password', 'password2'] : name)
        // The schema's "too similar to the username" is about the old name; the server's own message stays.
        if (name === 'username' && form.getValues('password') && form.formState.errors.password?.type !== 'server')
          form.clearErrors('password')
      },
    })

  const complete = useMutation({
    mutationFn: async (code?: string) => {
      if (verifiedPhone !== phone) {
        await authApi.verifyRegisterOtp(phone, code ?? '')
        setVerifiedPhone(phone)
      }
      await authApi.register({ username, password, password2, phone_number: phone })
    },
    onSuccess: () => navigate(paths.login(), { state: { notice: 'registered' } satisfies LoginState }),
    onError: (error) => {
      setStatus(failure('register.failed', error))
      const paths = Object.keys(fieldErrorsOf(error))
      const unclaimed = setServerErrors(form.setError, error, fromServerField)
      if (unclaimed.length < paths.length) {
        // A field the server refused (a common password, say) is fixed on step 1; the phone stays verified.
        flow.setStep('start')
      } else if (error instanceof ApiError && error.status === 409) {
        // Someone took the username or phone meanwhile: check both again and show which.
        void queryClient.invalidateQueries({ queryKey: authKeys.all })
        flow.setStep('start')
      }
    },
  })

  async function proceed(found: FieldErrors<RegisterValues>) {
    // Ask now rather than trust a debounced answer that may not have come yet.
    const [usernameTaken, phoneTaken] = await Promise.all([
      username && !usernameRule
        ? queryClient.fetchQuery(authQueries.exists('username', username)).catch(() => false)
        : false,
      phoneValid ? queryClient.fetchQuery(authQueries.exists('phone', phone)).catch(() => false) : false,
    ])
    const invalid = detailFields.filter(
      (field) => found[field] || (field === 'username' && usernameTaken) || (field === 'phone' && phoneTaken),
    )
    if (invalid.length > 0) {
      setStatus({ kind: 'error', keys: ['fix_errors'] })
      document.getElementById(fieldIds[invalid[0]!])?.focus()
      return
    }
    if (verifiedPhone === phone) {
      complete.mutate()
      return
    }
    flow.sendCode(phone, (error) => {
      if (error instanceof ApiError && error.status === 409)
        queryClient.setQueryData(authKeys.exists('phone', phone), true)
    })
  }

  function submitDetails(event: FormEvent) {
    setStatus(null)
    // A message the server gave a field stands until the field is edited, whatever the schema thinks.
    const fromServer = detailFields.flatMap((field) => {
      const error = errors[field]
      return error?.type === 'server' ? [[field, error] as const] : []
    })
    const keepServer = (found: FieldErrors<RegisterValues>) => {
      for (const [field, error] of fromServer) form.setError(field, error)
      return { ...found, ...Object.fromEntries(fromServer) }
    }
    void form.handleSubmit(
      () => proceed(keepServer({})),
      (found) => proceed(keepServer(found)),
    )(event)
  }

  const busy = isSubmitting || flow.isSending || complete.isPending
  const hydrated = useHydrated()

  return (
    <AuthCard id="register-title" title={t('register.title')}>
      {flow.step === 'start' ? (
        <form onSubmit={submitDetails} noValidate>
          <h2 className="auth-step" ref={stepHeading} tabIndex={-1}>
            {t('register.step_details')}
          </h2>
          <StatusAlert status={flow.status} />
          <Field
            id={fieldIds.username}
            label={t('username')}
            error={text(errorOf('username'))}
            status={availabilityStatus(usernameStatus, 'register.username_available')}
            required
          >
            {(control) => (
              <input
                {...control}
                {...field('username')}
                autoComplete="username"
                autoCapitalize="none"
                spellCheck={false}
              />
            )}
          </Field>
          <PhoneField
            id={fieldIds.phone}
            input={field('phone')}
            error={errorOf('phone')}
            status={availabilityStatus(phoneStatus, 'register.phone_available')}
          />
          <Field
            id={fieldIds.password}
            label={t('password')}
            hint={t('password_hint')}
            error={text(errorOf('password'))}
            required
          >
            {(control) => <PasswordInput {...control} {...field('password')} autoComplete="new-password" />}
          </Field>
          <Field
            id={fieldIds.password2}
            label={t('register.confirm_password')}
            error={text(errorOf('password2'))}
            required
          >
            {(control) => <PasswordInput {...control} {...field('password2')} autoComplete="new-password" />}
          </Field>
          <Button type="submit" variant="primary" block disabled={busy || !hydrated}>
            {verifiedPhone === phone ? t('register.verify') : t('register.send_otp')}
          </Button>
        </form>
      ) : (
        <OtpCodeForm
          flow={flow}
          id="register-otp"
          phone={phone}
          heading={
            <h2 className="auth-step" ref={stepHeading} tabIndex={-1}>
              {t('register.step_otp')}
            </h2>
          }
          submitLabel={t('register.verify')}
          backLabel={t('register.edit_details')}
          busy={busy}
          onVerify={(code) => complete.mutate(code)}
        />
      )}
      <p className="auth-links">
        {t('register.have_account')} <Link to={paths.login()}>{t('register.login_link')}</Link>
      </p>
    </AuthCard>
  )
}

/** This screen's calls go through TanStack Query, which comes with it (the login screen does without). */
export function Component() {
  return (
    <WithQueries>
      <Screen />
    </WithQueries>
  )
}
