import { useId, type ReactNode } from 'react'
import { useFormContext, useFormState, type FieldPath, type FieldValues } from 'react-hook-form'
import { Field } from './field'
import { useFieldMessage } from './field-message'

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
  options: readonly { value: string; label: string }[]
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
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}
