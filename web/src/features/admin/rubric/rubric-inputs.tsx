import { useId } from 'react'

/** The rubric's own plain inputs: a label tied to its control, and a hint where a number needs one. */

export function TextInput({
  label,
  value,
  onChange,
  lang,
  multiline,
}: {
  label: string
  value: string
  onChange: (value: string) => void
  lang: string
  multiline?: boolean
}) {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea id={id} lang={lang} rows={2} value={value} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input id={id} lang={lang} value={value} onChange={(event) => onChange(event.target.value)} />
      )}
    </div>
  )
}

export function NumberInput({
  label,
  hint,
  value,
  onChange,
}: {
  label: string
  hint: string
  value: string
  onChange: (value: string) => void
}) {
  const id = useId()
  const hintId = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        inputMode="decimal"
        aria-describedby={hintId}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={hintId} className="field__hint">
        {hint}
      </p>
    </div>
  )
}

export function SelectInput({
  label,
  value,
  options,
  onChange,
}: {
  label: string
  value: string
  options: { value: string; label: string }[]
  onChange: (value: string) => void
}) {
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  )
}
