import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRef, useState, type FormEvent } from 'react'
import type { FieldErrors } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { ApiError } from '../../api/api-error'
import { withQueries } from '../../api/with-queries'
import { fieldErrorsOf, setServerErrors } from '../../components/ui/form/server-errors'
import { paths } from '../../lib/paths'
import { authApi } from './auth.api'
import { AuthCard } from './auth-card'
import { failure } from './auth-messages'
import { authKeys, authQueries } from './availability'
import type { LoginState } from './login-state'
import { OtpCodeForm, useOtpFlow } from './otp-step'
import {
  detailFields,
  fieldIds,
  fromServerField,
  useDetailChecks,
  type DetailField,
  type RegisterValues,
} from './register-checks'
import { DetailsStep, useRegisterForm } from './register-details'

function Screen() {
  const { t } = useTranslation('auth')
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const { form, values } = useRegisterForm()
  const { errors, isSubmitting } = form.formState
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

  const checks = useDetailChecks(values, form.formState)
  const { username, usernameRule, phoneValid } = checks
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

  return (
    <AuthCard id="register-title" title={t('register.title')}>
      {flow.step === 'start' ? (
        <DetailsStep
          headingRef={stepHeading}
          status={flow.status}
          checks={checks}
          field={field}
          busy={busy}
          verified={verifiedPhone === phone}
          onSubmit={submitDetails}
        />
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

export const Component = withQueries(Screen)
