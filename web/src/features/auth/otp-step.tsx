import type { OtpPurpose } from '@quiz/contracts'
import { PHONE_PATTERN } from '@quiz/contracts/rules/identity'
import { useMutation } from '@tanstack/react-query'
import {
  useEffect,
  useEffectEvent,
  useRef,
  useState,
  type ChangeEvent,
  type FocusEvent,
  type ReactNode,
  type Ref,
} from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Field, type FieldStatus } from '../../components/ui/form/field'
import { fromDevanagariDigits } from '../../lib/digits'
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
import { Button } from '../../components/ui/button'

/** The control's wiring: RHF's `register(name)`, or a value and handler the screen keeps itself (registration). */
export interface DigitsInput {
  name: string
  ref?: Ref<HTMLInputElement>
  value?: string
  onChange: (event: ChangeEvent<HTMLInputElement>) => void
  onBlur?: (event: FocusEvent<HTMLInputElement>) => void
}

interface DigitsFieldProps {
  id: string
  input: DigitsInput
  error: FieldMessage | string | null | undefined
}

// A Nepali keyboard types ०-९: they are the same digits, kept as Latin ones (the phone rule and the server's).
const digitsOnly = (value: string) => fromDevanagariDigits(value).replace(/\D/g, '')

/** The phone number and the code take digits only (Devanagari ones become Latin): anything else is dropped as it arrives. */
function DigitsField({
  id,
  label,
  hint,
  status,
  input: { onChange, ...input },
  error,
  ...attributes
}: DigitsFieldProps & {
  label: string
  hint?: string
  status?: FieldStatus | null
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
          {...attributes}
          {...input}
          inputMode="numeric"
          onChange={(event) => {
            event.target.value = digitsOnly(event.target.value)
            onChange(event)
          }}
        />
      )}
    </Field>
  )
}

export function PhoneField(props: DigitsFieldProps & { status?: FieldStatus | null }) {
  const { t } = useTranslation('auth')
  return <DigitsField {...props} label={t('phone')} hint={t('phone_hint')} type="tel" autoComplete="tel-national" />
}

export function OtpField(props: DigitsFieldProps) {
  const { t } = useTranslation('auth')
  return (
    <DigitsField
      {...props}
      label={t('otp')}
      autoComplete="one-time-code"
      placeholder={t('otp_placeholder')}
      maxLength={6}
    />
  )
}

/** The start step's phone number as a form of its own: required, then 10 digits (PhoneNumberSchema's rule). */
export function usePhoneForm() {
  const form = useForm<{ phone_number: string }>({ defaultValues: { phone_number: '' }, reValidateMode: 'onSubmit' })
  const input = form.register('phone_number', {
    required: formTexts.required,
    pattern: { value: PHONE_PATTERN, message: formTexts.invalidPhone },
  })
  return { form, field: { input, error: form.formState.errors.phone_number?.message } }
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
