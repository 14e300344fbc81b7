// The form controls bound to react-hook-form. One module on purpose: each admin form uses several, and one shared
// chunk keeps the first screen's preload map short.
import { useId, type ReactNode } from 'react'
import { useController, useFormContext, useFormState, type FieldPath, type FieldValues } from 'react-hook-form'
import { Field } from './field'
import { useFieldMessage } from './field-message'

interface TextFieldProps<T extends FieldValues> {
  /** The field in the surrounding react-hook-form form (FormProvider); its error shows as the message line. */
  name: FieldPath<T>
  label: ReactNode
  hint?: ReactNode
  multiline?: boolean
  rows?: number
  type?: 'text' | 'number' | 'datetime-local' | 'date' | 'time'
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

interface CheckboxFieldProps<T extends FieldValues> {
  name: FieldPath<T>
  label: ReactNode
  /** A line saying what the switch does. */
  hint?: ReactNode
  className?: string
}

/** A switch bound to a react-hook-form field: the box, its label beside it, a hint and one message line. */
export function CheckboxField<T extends FieldValues = FieldValues>({
  name,
  label,
  hint,
  className,
}: CheckboxFieldProps<T>) {
  const { register, getFieldState } = useFormContext<T>()
  const { error } = getFieldState(name, useFormState<T>({ name }))
  const message = useFieldMessage()(error)
  const id = useId()
  const describedBy = [hint ? `${id}-hint` : '', message ? `${id}-message` : ''].filter(Boolean).join(' ')
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <div className="checkbox">
        <input
          id={id}
          type="checkbox"
          aria-invalid={Boolean(message)}
          aria-describedby={describedBy || undefined}
          {...register(name)}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      {hint && (
        <span id={`${id}-hint`} className="field__hint">
          {hint}
        </span>
      )}
      <span id={`${id}-message`} aria-live="polite" className="field__error">
        {message}
      </span>
    </div>
  )
}

interface SelectFieldProps<T extends FieldValues> {
  name: FieldPath<T>
  label: ReactNode
  /** `lang` on an option whose label is in the other language than the page's ("क ख ग घ ङ" on an English page). */
  options: readonly { value: string; label: string; lang?: string }[]
  hint?: ReactNode
  className?: string
}

/** A drop-down list in a Field, bound to a react-hook-form field. */
export function SelectField<T extends FieldValues = FieldValues>({
  name,
  label,
  options,
  hint,
  className,
}: SelectFieldProps<T>) {
  const { register, getFieldState } = useFormContext<T>()
  const { error } = getFieldState(name, useFormState<T>({ name }))
  const message = useFieldMessage()
  return (
    <Field label={label} hint={hint} error={message(error)} className={className}>
      {(control) => (
        <select {...control} {...register(name)}>
          {options.map((option) => (
            <option key={option.value} value={option.value} lang={option.lang}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}
