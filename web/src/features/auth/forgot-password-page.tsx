import { useMutation } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { paths } from '../../lib/paths'
import { authApi } from './auth.api'
import { AuthCard } from './auth-card'
import { failure, StatusAlert } from './auth-messages'
import type { ResetPasswordState } from './login-state'
import { PhoneField, usePhoneForm } from './digits-fields'
import { withQueries } from '../../api/with-queries'
import { useHydrated } from '../../lib/use-hydrated'
import { Button } from '../../components/ui/button'

function Screen() {
  const { t } = useTranslation('auth')
  const navigate = useNavigate()
  const phone = usePhoneForm()
  const hydrated = useHydrated()
  const send = useMutation({
    mutationFn: (number: string) => authApi.sendOtp(number, 'reset'),
    // The phone travels in the URL (WEB.md), so a reload of /reset-password keeps it.
    onSuccess: (_, number) =>
      navigate(paths.resetPassword(number), { state: { otpSent: true } satisfies ResetPasswordState }),
  })

  return (
    <AuthCard id="forgot-title" title={t('forgot.title')}>
      <form onSubmit={phone.form.handleSubmit(({ phone_number }) => send.mutate(phone_number))} noValidate>
        <StatusAlert status={send.isError ? failure('forgot.failed', send.error) : null} />
        <p>{t('forgot.intro')}</p>
        <PhoneField id="forgot-phone" {...phone.field} />
        <Button type="submit" variant="primary" block disabled={send.isPending || !hydrated}>
          {t('forgot.submit')}
        </Button>
      </form>
      <p className="auth-links">
        <Link to={paths.login()}>{t('forgot.back_to_login')}</Link>
      </p>
    </AuthCard>
  )
}

export const Component = withQueries(Screen)
