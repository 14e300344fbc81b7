import type { ReactNode } from 'react'
import { Field } from '../../../components/ui/form/field'

/** The server's refusals by path (`sections.1.items.0.draw.count`), already in the admin's words. */
export type PathErrors = (path: string) => string | null

interface PaperInputProps {
  label: ReactNode
  value: string
  onChange: (value: string) => void
  error: string | null
  hint?: ReactNode
  /** Figures: a number keypad on a phone, no spinner that a scroll could turn. */
  numeric?: boolean
  lang?: string
  list?: string
  className?: string
}

/** One input of the paper, with its hint and the server's message for its path. */
export function PaperInput({ label, value, onChange, error, hint, numeric, lang, list, className }: PaperInputProps) {
  return (
    <Field label={label} error={error} hint={hint} className={className}>
      {(control) => (
        <input
          {...control}
          type="text"
          inputMode={numeric ? 'decimal' : undefined}
          lang={lang}
          list={list}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  )
}
