import type { OtpPurpose } from '@quiz/contracts'
import { useMutation } from '@tanstack/react-query'
import { useEffect, useEffectEvent, useRef, useState, type ReactNode, type Ref } from 'react'
import { useController, useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Field, type FieldStatus } from '../../components/ui/form/field'
import { authApi } from './auth.api'
import {
  failure,
  formTexts,
  StatusAlert,
  useMessageText,
  type AuthKey,
  type FieldMessage,
  type StatusMessage,
} from './auth-messages'
import { codeForm } from './auth-resolvers'
import { ResendOtp } from './resend-otp'
import { useResendCountdown } from './use-resend-countdown'
import { PHONE_PATTERN } from './validation'

interface DigitsFieldProps {
  id: string
  value: string
  onChange: (digits: string) => void
  error: FieldMessage | string | null | undefined
  inputRef?: Ref<HTMLInputElement>
  onBlur?: () => void
}

const digitsOnly = (value: string) => value.replace(/\D/g, '')

/** The phone number and the code take digits only: anything else typed or pasted is dropped as it arrives. */
function DigitsField({
  id,
  label,
  hint,
  status,
  value,
  onChange,
  error,
  inputRef,
  onBlur,
  ...input
}: DigitsFieldProps & {
  label: string
  hint?: string
  status?: FieldStatus | null
  name: string
  type?: 'tel'
  autoComplete: string
  placeholder?: string
  maxLength?: number
}) {
  const text = useMessageText()
  return (
    <Field id={id} label={label} hint={hint} error={text(error)} status={status} required>
      {(control) => (
        <input
          {...control}
          {...input}
          ref={inputRef}
          inputMode="numeric"
          value={value}
          onChange={(event) => onChange(digitsOnly(event.target.value))}
          onBlur={onBlur}
        />
      )}
    </Field>
  )
}

export function PhoneField(props: DigitsFieldProps & { status?: FieldStatus | null }) {
  const { t } = useTranslation('auth')
  return (
    <DigitsField
      {...props}
      label={t('phone')}
      hint={t('phone_hint')}
      name="phone"
      type="tel"
      autoComplete="tel-national"
    />
  )
}

export function OtpField(props: DigitsFieldProps) {
  const { t } = useTranslation('auth')
  return (
    <DigitsField
      {...props}
      label={t('otp')}
      name="otp"
      autoComplete="one-time-code"
      placeholder={t('otp_placeholder')}
      maxLength={6}
    />
  )
}

/** The start step's phone number as a form of its own: required, then 10 digits (PhoneNumberSchema's rule). */
export function usePhoneForm() {
  const form = useForm<{ phone_number: string }>({ defaultValues: { phone_number: '' }, reValidateMode: 'onSubmit' })
  const { field, fieldState } = useController({
    control: form.control,
    name: 'phone_number',
    rules: {
      required: formTexts.required,
      pattern: { value: PHONE_PATTERN, message: formTexts.invalidPhone },
    },
  })
  return {
    form,
    field: { inputRef: field.ref, value: field.value, onChange: field.onChange, error: fieldState.error?.message },
  }
}

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
    void codeForm.preload()
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
  const { field, fieldState } = useController({ control: flow.code.control, name: 'otp' })

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
        inputRef={(input) => {
          field.ref(input)
          flow.setCodeInput(input)
        }}
        value={field.value}
        onChange={field.onChange}
        error={fieldState.error?.message}
      />
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
