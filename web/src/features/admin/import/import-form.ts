import type { Resolver } from 'react-hook-form'
import type { ImportFormat, ImportInput, LegacyFontChoice } from './import.api'

// The import form's values (react-hook-form): the input, how to read it and the defaults for rows that lack them.

export type InputMode = 'file' | 'paste'

export interface ImportDefaults {
  topic: string
  tags: string
  difficulty: string
  source: string
}

export interface ImportValues {
  mode: InputMode
  file: File | null
  text: string
  /** '' lets the server guess from the file's content and name. */
  format: ImportFormat | ''
  legacyFont: LegacyFontChoice
  defaults: ImportDefaults
}

export const emptyImport: ImportValues = {
  mode: 'file',
  file: null,
  text: '',
  format: '',
  legacyFont: 'auto',
  defaults: { topic: '', tags: '', difficulty: '', source: '' },
}

/** The chosen input, or null when it is empty (no file, or only spaces pasted). */
export function contentOf(values: ImportValues): ImportInput['content'] | null {
  if (values.mode === 'file') return values.file ? { file: values.file } : null
  return values.text.trim() ? { text: values.text } : null
}

/** What the dry run is sent for these values and the sheet's column mapping. */
export function inputOf(values: ImportValues, columns: ImportInput['columns']): ImportInput | null {
  const content = contentOf(values)
  return content && { content, format: values.format, legacyFont: values.legacyFont, ...values.defaults, columns }
}

/** The form's one check: something to read. The message is a key of the import texts, on the chosen input. */
export const importResolver: Resolver<ImportValues> = (values) =>
  contentOf(values)
    ? { values, errors: {} }
    : {
        values: {},
        errors: { [values.mode === 'file' ? 'file' : 'text']: { type: 'required', message: 'errors.no_input' } },
      }
