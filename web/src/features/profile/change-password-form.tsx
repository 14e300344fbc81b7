import { zodResolver } from '@hookform/resolvers/zod'
import { PasswordChangeRequestSchema, type PasswordChangeRequest } from '@quiz/contracts'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/api-error'
import { Alert } from '../../components/ui/alert'
import { Field } from '../../components/ui/form/field'
import { setServerErrors } from '../../components/ui/form/server-errors'
import { PasswordInput } from '../../components/ui/password-input'
import { useMessageText } from '../../i18n/auth-texts'
import { useChangePassword } from './profile.api'
import { Button } from '../../components/ui/button'
import './profile.i18n'

const resolver = zodResolver(PasswordChangeRequestSchema)
const EMPTY: PasswordChangeRequest = { current_password: '', password: '', password2: '' }

/** Current password, new password, confirm: the server logs out every other login and keeps this one. */
export function ChangePasswordForm() {
  const { t } = useTranslation('profile')
  const text = useMessageText()
  const form = useForm<PasswordChangeRequest>({ resolver, defaultValues: EMPTY, reValidateMode: 'onSubmit' })
  const { errors } = form.formState
  const change = useChangePassword()
  const [outcome, setOutcome] = useState<'changed' | 'failed' | 'rate_limited' | null>(null)

  const submit = (values: PasswordChangeRequest) =>
    change.mutate(values, {
      onSuccess: () => {
        setOutcome('changed')
        form.reset(EMPTY)
      },
      onError: (error) => {
        setOutcome(error instanceof ApiError && error.status === 429 ? 'rate_limited' : 'failed')
        setServerErrors(form.setError, error, {
          current_password: 'current_password',
          password: 'password',
          password2: 'password2',
        })
      },
    })

  return (
    <form
      className="card profile-section"
      aria-labelledby="password-title"
      noValidate
      onSubmit={(event) => {
        setOutcome(null)
        void form.handleSubmit(submit, () => setOutcome('failed'))(event)
      }}
    >
      <h2 id="password-title">{t('password_title')}</h2>
      {outcome === 'changed' && <Alert kind="success">{t('password_changed')}</Alert>}
      {outcome === 'failed' && <Alert kind="error">{t('password_change_failed')}</Alert>}
      {outcome === 'rate_limited' && <Alert kind="error">{t('password_rate_limited')}</Alert>}
      <Field id="current-password" label={t('current_password')} error={text(errors.current_password?.message)}>
        {(control) => (
          <PasswordInput {...control} {...form.register('current_password')} autoComplete="current-password" />
        )}
      </Field>
      <Field
        id="new-password"
        label={t('new_password')}
        hint={t('new_password_hint')}
        error={text(errors.password?.message)}
      >
        {(control) => <PasswordInput {...control} {...form.register('password')} autoComplete="new-password" />}
      </Field>
      <Field id="new-password2" label={t('confirm_password')} error={text(errors.password2?.message)}>
        {(control) => <PasswordInput {...control} {...form.register('password2')} autoComplete="new-password" />}
      </Field>
      <Button type="submit" variant="primary" block disabled={change.isPending}>
        {change.isPending ? t('changing_password') : t('change_password')}
      </Button>
    </form>
  )
}
