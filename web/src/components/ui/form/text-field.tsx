import type { ReactNode } from 'react'
import { Field } from './field'

interface TextFieldProps {
  label: ReactNode
  value: string
  onChange: (value: string) => void
  /** Server error messages for this field, shown as one line. */
  errors?: string[]
  hint?: ReactNode
  multiline?: boolean
  rows?: number
  type?: 'text' | 'number' | 'datetime-local'
  lang?: string
  placeholder?: string
  required?: boolean
  className?: string
  /** Monospace input for code (SVG markup). */
  code?: boolean
  children?: ReactNode
}

/** A controlled input or textarea in a Field, for forms whose state is a draft object (the admin's quiz editor). */
export function TextField({
  label,
  value,
  onChange,
  errors = [],
  hint,
  multiline,
  rows,
  type = 'text',
  lang,
  placeholder,
  required,
  className,
  code,
  children,
}: TextFieldProps) {
  return (
    <Field
      label={label}
      hint={hint}
      error={errors.join(' ') || null}
      required={required}
      className={className}
      footer={children}
    >
      {(control) => {
        const common = { ...control, value, lang, placeholder, className: code ? 'admin-code' : undefined }
        return multiline ? (
          <textarea
            {...common}
            rows={rows}
            spellCheck={code ? false : undefined}
            onChange={(event) => onChange(event.target.value)}
          />
        ) : (
          <input
            {...common}
            type={type}
            inputMode={type === 'number' ? 'numeric' : undefined}
            onChange={(event) => onChange(event.target.value)}
          />
        )
      }}
    </Field>
  )
}
