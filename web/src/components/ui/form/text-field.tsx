import type { ReactNode } from 'react'
import { useController, type FieldPath, type FieldValues } from 'react-hook-form'
import { Field } from './field'
import { useFieldMessage } from './field-message'

interface TextFieldProps<T extends FieldValues> {
  /** The field in the surrounding react-hook-form form (FormProvider); its error shows as the message line. */
  name: FieldPath<T>
  label: ReactNode
  hint?: ReactNode
  multiline?: boolean
  rows?: number
  type?: 'text' | 'number' | 'datetime-local' | 'date'
  lang?: string
  placeholder?: string
  required?: boolean
  disabled?: boolean
  className?: string
  /** Monospace input for code (SVG markup, JSON). */
  code?: boolean
  /** Anything shown after the message (a preview, a Clear button). */
  children?: ReactNode
}

/** An input or textarea in a Field, bound to a react-hook-form field of the form around it. */
export function TextField<T extends FieldValues = FieldValues>({
  name,
  label,
  hint,
  multiline,
  rows,
  type = 'text',
  lang,
  placeholder,
  required,
  disabled,
  className,
  code,
  children,
}: TextFieldProps<T>) {
  const { field, fieldState } = useController<T>({ name })
  const message = useFieldMessage()
  return (
    <Field
      label={label}
      hint={hint}
      error={message(fieldState.error)}
      required={required}
      className={className}
      footer={children}
    >
      {(control) => {
        const common = {
          ...control,
          ...field,
          value: field.value ?? '',
          // Only the control: a disabled react-hook-form field would drop its value from what the form sends.
          disabled,
          lang,
          placeholder,
          className: code ? 'admin-code' : undefined,
        }
        return multiline ? (
          <textarea {...common} rows={rows} spellCheck={code ? false : undefined} />
        ) : (
          <input {...common} type={type} inputMode={type === 'number' ? 'numeric' : undefined} />
        )
      }}
    </Field>
  )
}
