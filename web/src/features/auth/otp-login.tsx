import { normalisePhone } from '@quiz/contracts/rules/identity'
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/api-error'
import { WithQueries } from '../../api/with-queries'
import type { Language } from '../../i18n/i18n'
import { authApi, startSession } from './auth.api'
import { failure, StatusAlert } from './auth-messages'
import { NotAMember } from './lazy-not-a-member'
import { isNotAMember } from './not-a-member-error'
import { PhoneField, usePhoneForm } from './digits-fields'
import { OtpCodeForm, useOtpFlow } from './otp-step'
import { Button } from '../../components/ui/button'

export interface FlowProps {
  onSubmit: () => void
  onSignedIn: () => void
  adoptLanguage?: Language
}

/** Login by code goes through TanStack Query, which comes with this chunk (the password form does without). */
export function OtpLogin(props: FlowProps) {
  return (
    <WithQueries>
      <OtpFlow {...props} />
    </WithQueries>
  )
}

function OtpFlow({ onSubmit, onSignedIn, adoptLanguage }: FlowProps) {
  const { t } = useTranslation('auth')
  const phone = usePhoneForm()
  const flow = useOtpFlow({
    purpose: 'login',
    sendFailed: 'login.otp_send_failed',
    focusStart: () => phone.form.setFocus('phone_number'),
  })
  // Read on each render: the code step shows and verifies the number the code was sent to.
  const phoneNumber = normalisePhone(phone.form.getValues('phone_number'))
  const [refusedCode, setRefusedCode] = useState<{ error: ApiError; otp: string } | null>(null)
  const verify = useMutation({
    mutationFn: async (code: string) =>
      startSession(await authApi.verifyLoginOtp(phoneNumber, code), { adoptLanguage }),
    onSuccess: onSignedIn,
    onMutate: () => setRefusedCode(null),
    // 403: the phone is an admin's, and admins sign in with their password only (the server's rule).
    onError: (error, code) => {
      if (isNotAMember(error)) return setRefusedCode({ error, otp: code })
      flow.setStatus(
        error instanceof ApiError && error.status === 403
          ? { kind: 'error', keys: ['login.otp_admin_refused'] }
          : failure('login.otp_verify_failed', error),
      )
    },
  })

  if (flow.step === 'code') {
    return (
      <>
        {refusedCode && (
          <NotAMember
            error={refusedCode.error}
            join={() => authApi.join({ phone_number: phoneNumber, otp: refusedCode.otp })}
            onJoined={async (tokens) => {
              await startSession(tokens, { adoptLanguage })
              onSignedIn()
            }}
          />
        )}
        <OtpCodeForm
          flow={flow}
          id="login-otp"
          phone={phoneNumber}
          submitLabel={t('login.verify')}
          backLabel={t('login.change_phone')}
          busy={verify.isPending}
          onVerify={(code) => verify.mutate(code)}
        />
      </>
    )
  }
  return (
    <form
      onSubmit={(event) => {
        onSubmit()
        flow.setStatus(null)
        void phone.form.handleSubmit(({ phone_number }) => flow.sendCode(phone_number))(event)
      }}
      noValidate
    >
      <StatusAlert status={flow.status} />
      <PhoneField id="login-phone" {...phone.field} />
      <Button type="submit" variant="primary" block disabled={flow.isSending}>
        {t('login.send_otp')}
      </Button>
    </form>
  )
}
