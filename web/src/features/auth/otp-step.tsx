import type { OtpPurpose } from '@quiz/contracts'
import { useMutation } from '@tanstack/react-query'
import { useEffect, useRef, useState, type FormEvent, type ReactNode, type Ref, type RefObject } from 'react'
import { useTranslation } from 'react-i18next'
import { authApi } from './auth.api'
import {
  failure,
  Field,
  StatusAlert,
  type AuthKey,
  type FieldMessage,
  type FieldStatus,
  type StatusMessage,
} from './form-field'
import { ResendOtp } from './resend-otp'
import { useResendCountdown } from './use-resend-countdown'
import { isValidPhone } from './validation'

interface DigitsFieldProps {
  id: string
  value: string
  onChange: (digits: string) => void
  error: FieldMessage | null | undefined
  inputRef?: Ref<HTMLInputElement>
}

const digitsOnly = (value: string) => value.replace(/\D/g, '')

interface PhoneFieldProps extends DigitsFieldProps {
  status?: FieldStatus | null
  onBlur?: () => void
}

export function PhoneField({ id, value, onChange, error, inputRef, status, onBlur }: PhoneFieldProps) {
  const { t } = useTranslation('auth')
  return (
    <Field id={id} label={t('phone')} hint={t('phone_hint')} error={error} status={status}>
      {(input) => (
        <input
          {...input}
          ref={inputRef}
          name="phone"
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          value={value}
          onChange={(event) => onChange(digitsOnly(event.target.value))}
          onBlur={onBlur}
        />
      )}
    </Field>
  )
}

export function OtpField({ id, value, onChange, error, inputRef }: DigitsFieldProps) {
  const { t } = useTranslation('auth')
  return (
    <Field id={id} label={t('otp')} error={error}>
      {(input) => (
        <input
          {...input}
          ref={inputRef}
          name="otp"
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder={t('otp_placeholder')}
          maxLength={6}
          value={value}
          onChange={(event) => onChange(digitsOnly(event.target.value))}
        />
      )}
    </Field>
  )
}

/** A field checked on submit: `check()` shows its problem, moves the focus to it, and says whether it passed. */
function useCheckedInput(problemOf: (value: string) => FieldMessage | null, { clearErrorOnChange = false } = {}) {
  const [value, setValue] = useState('')
  const [error, setError] = useState<FieldMessage | null>(null)
  const inputRef = useRef<HTMLInputElement>(null)
  return {
    value,
    field: {
      value,
      error,
      inputRef,
      onChange: (next: string) => {
        setValue(next)
        if (clearErrorOnChange) setError(null)
      },
    },
    check() {
      const problem = problemOf(value)
      setError(problem)
      if (problem) inputRef.current?.focus()
      return !problem
    },
    clear() {
      setValue('')
      setError(null)
    },
  }
}

export const usePhoneInput = () =>
  useCheckedInput((phone) => (!phone ? { key: 'required' } : isValidPhone(phone) ? null : { key: 'invalid_phone' }))

interface OtpFlowOptions {
  purpose: OtpPurpose
  /** The screen's message when a code cannot be sent. */
  sendFailed: AuthKey
  /** Where the focus lands when the learner goes back to the first step. */
  startFocus: RefObject<HTMLElement | null>
  /** Registration drops a field's message as soon as it is edited; login keeps it until the next submit. */
  clearErrorOnChange?: boolean
}

/**
 * The two steps of login by OTP and of registration: a start step that takes the phone number, then the code.
 * Holds the screen's message line, the code field and the resend wait; the screen verifies the code.
 */
export function useOtpFlow({ purpose, sendFailed, startFocus, clearErrorOnChange }: OtpFlowOptions) {
  const [step, setStep] = useState<'start' | 'code'>('start')
  const [status, setStatus] = useState<StatusMessage | null>(null)
  const [sentTo, setSentTo] = useState<string | null>(null)
  const code = useCheckedInput((value) => (value.trim() ? null : { key: 'required' }), { clearErrorOnChange })
  const countdown = useResendCountdown()
  const send = useMutation({ mutationFn: (phone: string) => authApi.sendOtp(phone, purpose) })
  const firstRender = useRef(true)

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false
      return
    }
    ;(step === 'code' ? code.field.inputRef : startFocus).current?.focus()
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
        code.clear()
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
  onVerify: () => void
}

/** The code step: the code, its resend link, and a way back to the start step. */
export function OtpCodeForm({ flow, id, phone, heading, submitLabel, backLabel, busy, onVerify }: OtpCodeFormProps) {
  const { t } = useTranslation('auth')

  function submit(event: FormEvent) {
    event.preventDefault()
    flow.setStatus(null)
    if (flow.code.check()) onVerify()
  }

  return (
    <form onSubmit={submit} noValidate>
      {heading}
      <StatusAlert status={flow.status} />
      <p>{t('otp_step.code_sent_to', { phone })}</p>
      <OtpField id={id} {...flow.code.field} />
      <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
        {submitLabel}
      </button>
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
