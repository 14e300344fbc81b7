import type { FieldErrors } from '../../components/ui/form/server-errors'
import { TextField } from '../../components/ui/form/text-field'

/** The server's messages at any of these field paths, in order. */
export const messagesAt = (errors: FieldErrors, ...paths: string[]) => paths.flatMap((path) => errors[path] ?? [])

interface BilingualFieldsProps {
  labels: { en: string; ne: string }
  value: { en: string; ne: string }
  onChange: (language: 'en' | 'ne', text: string) => void
  /**
   * The pair's path in the request ("title", "options.2.text"): messages about the pair as a whole and about `.en`
   * show under English (the required one), those about `.ne` under Nepali.
   */
  path: string
  errors: FieldErrors
  /** Textareas of this many rows; inputs when not given. */
  rows?: number
}

/** One text in English and Nepali, side by side where the layout has room: the shape of every text a quiz holds. */
export function BilingualFields({ labels, value, onChange, path, errors, rows }: BilingualFieldsProps) {
  const lines = rows === undefined ? {} : { multiline: true, rows }
  return (
    <>
      <TextField
        label={labels.en}
        {...lines}
        value={value.en}
        errors={messagesAt(errors, path, `${path}.en`)}
        onChange={(text) => onChange('en', text)}
      />
      <TextField
        label={labels.ne}
        {...lines}
        lang="ne"
        value={value.ne}
        errors={errors[`${path}.ne`]}
        onChange={(text) => onChange('ne', text)}
      />
    </>
  )
}
