import { type ChangeEvent, type FocusEvent, type Ref } from 'react'
import { PHONE_PATTERN } from '@quiz/contracts/rules/identity'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Field, type FieldStatus } from '../../components/ui/form/field'
import { fromDevanagariDigits } from '../../lib/digits'
import { formTexts, useMessageText, type FieldMessage } from './auth-messages'

// The phone number and the one-time code: the fields of digits the auth screens share.

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
