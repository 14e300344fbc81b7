import { useMutation } from '@tanstack/react-query'
import { usersMessages } from '@quiz/contracts'
import { isValidPhone, normalisePhone } from '@quiz/contracts/rules/identity'
import { useState } from 'react'
import { useForm, type FieldErrors } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router'
import { paths } from '../../lib/paths'
import { Alert } from '../../components/ui/alert'
import { Field } from '../../components/ui/form/field'
import { setServerErrors } from '../../components/ui/form/server-errors'
import { PasswordInput } from '../../components/ui/password-input'
import { authApi } from './auth.api'
import { AuthCard } from './auth-card'
import { failure, StatusAlert, useMessageText, type StatusMessage } from './auth-messages'
import { resetForm } from './auth-resolvers'
import type { LoginState, ResetPasswordState } from './login-state'
import { OtpField } from './digits-fields'
import { ResendOtp } from './resend-otp'
import { useResendCountdown } from './use-resend-countdown'
import { withQueries } from '../../api/with-queries'
import { Button, buttonClass } from '../../components/ui/button'

function Screen() {
  const { t } = useTranslation('auth')
  const [params] = useSearchParams()
  const phone = normalisePhone(params.get('phone') ?? '')

  if (!isValidPhone(phone)) {
    return (
      <AuthCard id="reset-title" title={t('reset.title')}>
        <Alert kind="error">{t('reset.missing_phone')}</Alert>
        <Link className={buttonClass({ variant: 'primary', block: true })} to={paths.forgotPassword()}>
          {t('reset.go_to_forgot')}
        </Link>
      </AuthCard>
    )
  }
  return <ResetForm phone={phone} />
}

type ResetValues = { otp: string; password: string; password2: string }

function ResetForm({ phone }: { phone: string }) {
  const { t } = useTranslation('auth')
  const text = useMessageText()
  const navigate = useNavigate()
  const location = useLocation()
  const form = useForm<ResetValues>({
    resolver: resetForm.resolver,
    defaultValues: { otp: '', password: '', password2: '' },
    reValidateMode: 'onSubmit',
  })
  const { errors } = form.formState
  const [status, setStatus] = useState<StatusMessage | null>(() =>
    (location.state as ResetPasswordState | null)?.otpSent ? { kind: 'success', keys: ['otp_step.sent'] } : null,
  )
  // The code went out just before this screen opened. After a reload the wait starts again, which at worst
  // is longer than the server's own 60 s.
  const countdown = useResendCountdown({ startOnMount: true })

  const reset = useMutation({
    mutationFn: (values: ResetValues) => authApi.resetPassword({ phone_number: phone, ...values }),
    onSuccess: () =>
      navigate(paths.login(), { replace: true, state: { notice: 'password_reset' } satisfies LoginState }),
    onError: (error) => {
      setStatus(failure('reset.failed', error))
      setServerErrors(form.setError, error, { otp: 'otp', password: 'password', password2: 'password2' })
    },
  })

  // A field's message is about the value as it was: editing the field drops it until the next submit.
  const clearOnChange = (field: keyof ResetValues) => ({ onChange: () => form.clearErrors(field) })

  function showProblems(found: FieldErrors<ResetValues>) {
    // SPEC.md: a mismatch says "Passwords do not match."; anything else points at the fields.
    const onlyMismatch = found.password2?.message === usersMessages.passwordMismatch && !found.otp && !found.password
    setStatus({ kind: 'error', keys: [onlyMismatch ? 'passwords_mismatch' : 'fix_errors'] })
  }

  return (
    <AuthCard id="reset-title" title={t('reset.title')}>
      <form
        onSubmit={(event) => {
          setStatus(null)
          void form.handleSubmit((values) => reset.mutate(values), showProblems)(event)
        }}
        noValidate
      >
        <StatusAlert status={status} />
        <p>{t('otp_step.code_sent_to', { phone })}</p>
        <OtpField id="reset-otp" input={form.register('otp', clearOnChange('otp'))} error={errors.otp?.message} />
        <Field
          id="reset-password"
          label={t('reset.new_password')}
          hint={t('password_hint')}
          error={text(errors.password?.message)}
          required
        >
          {(control) => (
            <PasswordInput
              {...control}
              {...form.register('password', clearOnChange('password'))}
              autoComplete="new-password"
            />
          )}
        </Field>
        <Field
          id="reset-password2"
          label={t('reset.confirm_password')}
          error={text(errors.password2?.message)}
          required
        >
          {(control) => (
            <PasswordInput
              {...control}
              {...form.register('password2', clearOnChange('password2'))}
              autoComplete="new-password"
            />
          )}
        </Field>
        <Button type="submit" variant="primary" block disabled={reset.isPending}>
          {t('reset.submit')}
        </Button>
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
    </AuthCard>
  )
}

export const Component = withQueries(Screen)
