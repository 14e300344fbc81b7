import type { OtpPurpose } from '@quiz/contracts'
import { useMutation } from '@tanstack/react-query'
import { useEffect, useEffectEvent, useRef, useState, type ReactNode } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { authApi } from './auth.api'
import { failure, StatusAlert, type AuthKey, type StatusMessage } from './auth-messages'
import { OtpField } from './digits-fields'
import { codeForm } from './auth-resolvers'
import { ResendOtp } from './resend-otp'
import { useResendCountdown } from './use-resend-countdown'
import { Button } from '../../components/ui/button'

interface OtpFlowOptions {
  purpose: OtpPurpose
  /** The screen's message when a code cannot be sent. */
  sendFailed: AuthKey
  /** Moves the focus to the first step when the learner goes back to it. */
  focusStart: () => void
  /** Registration drops a field's message as soon as it is edited; login keeps it until the next submit. */
  clearErrorOnChange?: boolean
}

/**
 * The two steps of login by OTP and of registration: a start step that takes the phone number, then the code.
 * Holds the screen's message line, the code form and the resend wait; the screen verifies the code.
 */
export function useOtpFlow({ purpose, sendFailed, focusStart, clearErrorOnChange }: OtpFlowOptions) {
  const [step, setStep] = useState<'start' | 'code'>('start')
  const [status, setStatus] = useState<StatusMessage | null>(null)
  const [sentTo, setSentTo] = useState<string | null>(null)
  const code = useForm<{ otp: string }>({
    resolver: codeForm.resolver,
    defaultValues: { otp: '' },
    reValidateMode: clearErrorOnChange ? 'onChange' : 'onSubmit',
  })
  const countdown = useResendCountdown()
  const send = useMutation({ mutationFn: (phone: string) => authApi.sendOtp(phone, purpose) })
  const firstRender = useRef(true)
  const codeInput = useRef<HTMLInputElement | null>(null)

  const focusStep = useEffectEvent(() => (step === 'code' ? codeInput.current?.focus() : focusStart()))
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false
      return
    }
    focusStep()
  }, [step])

  /** Sends a code and opens the code step. `onError` runs before the failure message is shown. */
  function sendCode(phone: string, onError?: (error: Error) => void) {
    // A code sent to this number less than 60 s ago is still good: go back to it instead of being refused.
    if (sentTo === phone && !countdown.canResend) {
      setStep('code')
      return
    }
    send.mutate(phone, {
      onSuccess: () => {
        setSentTo(phone)
        countdown.start()
        code.reset()
        setStatus({ kind: 'success', keys: ['otp_step.sent'] })
        setStep('code')
      },
      onError: (error) => {
        onError?.(error)
        setStatus(failure(sendFailed, error))
      },
    })
  }

  return {
    step,
    setStep,
    status,
    setStatus,
    code,
    /** The code field's element, kept so the step change can focus it. */
    setCodeInput: (input: HTMLInputElement | null) => {
      codeInput.current = input
    },
    countdown,
    sendFailed,
    isSending: send.isPending,
    sendCode,
    resend: (phone: string) => send.mutateAsync(phone),
  }
}

export type OtpFlow = ReturnType<typeof useOtpFlow>

interface OtpCodeFormProps {
  flow: OtpFlow
  id: string
  phone: string
  heading?: ReactNode
  submitLabel: string
  backLabel: string
  busy: boolean
  /** Gets the code as the contract reads it (trimmed). */
  onVerify: (code: string) => void
}

/** The code step: the code, its resend link, and a way back to the start step. */
export function OtpCodeForm({ flow, id, phone, heading, submitLabel, backLabel, busy, onVerify }: OtpCodeFormProps) {
  const { t } = useTranslation('auth')
  const { ref, ...code } = flow.code.register('otp')

  return (
    <form
      onSubmit={(event) => {
        flow.setStatus(null)
        void flow.code.handleSubmit(({ otp }) => onVerify(otp))(event)
      }}
      noValidate
    >
      {heading}
      <StatusAlert status={flow.status} />
      <p>{t('otp_step.code_sent_to', { phone })}</p>
      <OtpField
        id={id}
        input={{
          ...code,
          ref: (input: HTMLInputElement | null) => {
            ref(input)
            flow.setCodeInput(input)
          },
        }}
        error={flow.code.formState.errors.otp?.message}
      />
      <Button type="submit" variant="primary" block disabled={busy}>
        {submitLabel}
      </Button>
      <ResendOtp
        countdown={flow.countdown}
        send={() => flow.resend(phone)}
        onStatus={flow.setStatus}
        failed={flow.sendFailed}
      />
      <button
        type="button"
        className="link-button"
        onClick={() => {
          flow.setStatus(null)
          flow.setStep('start')
        }}
      >
        {backLabel}
      </button>
    </form>
  )
}
