import { useEffect, useState, type FormEvent, type Ref } from 'react'
import { useForm, type UseFormRegisterReturn } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Button } from '../../components/ui/button'
import { Field } from '../../components/ui/form/field'
import { PasswordInput } from '../../components/ui/password-input'
import { useHydrated } from '../../lib/use-hydrated'
import { StatusAlert, useMessageText, type StatusMessage } from './auth-messages'
import { registerForm } from './auth-resolvers'
import { PhoneField } from './digits-fields'
import { fieldIds, type DetailField, type RegisterValues, type useDetailChecks } from './register-checks'

/** The details form, and its values as they are typed: they drive the availability checks and the messages. */
export function useRegisterForm() {
  const form = useForm<RegisterValues>({
    resolver: registerForm.resolver,
    defaultValues: { username: '', phone: '', password: '', password2: '' },
    // The fields' messages follow the values as they are typed (below); the schema decides on submit.
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
  })
  // A subscription rather than useWatch, which would add to react-hook-form's code on the first screen.
  const [values, setValues] = useState<RegisterValues>(() => ({ ...form.getValues() }))
  useEffect(
    () =>
      form.subscribe({
        formState: { values: true },
        callback: (state) => setValues({ ...state.values }),
      }),
    [form],
  )
  return { form, values }
}

interface DetailsStepProps {
  headingRef: Ref<HTMLHeadingElement>
  status: StatusMessage | null
  checks: ReturnType<typeof useDetailChecks>
  field: (name: DetailField) => UseFormRegisterReturn<DetailField>
  busy: boolean
  /** The phone is verified already: the button sends the registration, not a code. */
  verified: boolean
  onSubmit: (event: FormEvent) => void
}

/** Step 1: username, phone and password, each checked as typed. */
export function DetailsStep({ headingRef, status, checks, field, busy, verified, onSubmit }: DetailsStepProps) {
  const { t } = useTranslation('auth')
  const text = useMessageText()
  const hydrated = useHydrated()
  const { errorOf, availabilityStatus, usernameStatus, phoneStatus } = checks
  return (
    <form onSubmit={onSubmit} noValidate>
      <h2 className="auth-step" ref={headingRef} tabIndex={-1}>
        {t('register.step_details')}
      </h2>
      <StatusAlert status={status} />
      <Field
        id={fieldIds.username}
        label={t('username')}
        error={text(errorOf('username'))}
        status={availabilityStatus(usernameStatus, 'register.username_available')}
        required
      >
        {(control) => (
          <input {...control} {...field('username')} autoComplete="username" autoCapitalize="none" spellCheck={false} />
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
      <Field id={fieldIds.password2} label={t('register.confirm_password')} error={text(errorOf('password2'))} required>
        {(control) => <PasswordInput {...control} {...field('password2')} autoComplete="new-password" />}
      </Field>
      <Button type="submit" variant="primary" block disabled={busy || !hydrated}>
        {verified ? t('register.verify') : t('register.send_otp')}
      </Button>
    </form>
  )
}
