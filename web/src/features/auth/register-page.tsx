import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useForm, type FieldErrors } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { ApiError } from '../../api/api-error'
import { paths } from '../../lib/paths'
import { PasswordInput } from '../../components/ui/password-input'
import { authApi } from './auth.api'
import { authKeys, authQueries } from './availability'
import { AuthCard } from './auth-card'
import { Field } from '../../components/ui/form/field'
import { fieldErrorsOf, setServerErrors } from '../../components/ui/form/server-errors'
import { failure, StatusAlert, useMessageText } from './auth-messages'
import { registerForm } from './auth-resolvers'
import type { LoginState } from './login-state'
import { PhoneField } from './digits-fields'
import { OtpCodeForm, useOtpFlow } from './otp-step'
import {
  detailFields,
  fieldIds,
  fromServerField,
  useDetailChecks,
  type DetailField,
  type RegisterValues,
} from './register-checks'
import { WithQueries } from '../../api/with-queries'
import { useHydrated } from '../../lib/use-hydrated'
import { Button } from '../../components/ui/button'

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
  const { errors, isSubmitting } = form.formState
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

  const { username, usernameRule, phoneValid, usernameStatus, phoneStatus, errorOf, availabilityStatus } =
    useDetailChecks(values, form.formState)
  const { phone, password, password2 } = values

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
