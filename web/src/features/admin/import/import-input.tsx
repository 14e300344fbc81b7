import { useTranslation } from 'react-i18next'
import './import.i18n'

export type InputMode = 'file' | 'paste'

interface ImportInputFieldsProps {
  id: string
  mode: InputMode
  onMode: (mode: InputMode) => void
  file: File | null
  onFile: (file: File | null) => void
  text: string
  onText: (text: string) => void
  /** "Check" was pressed with nothing to check. */
  missing: boolean
}

/** A file or pasted text, by a radio pair (the server refuses both at once). */
export function ImportInputFields({ id, mode, onMode, file, onFile, text, onText, missing }: ImportInputFieldsProps) {
  const { t } = useTranslation('import')
  return (
    <>
      <fieldset className="import-mode">
        <legend>{t('input.legend')}</legend>
        {(['file', 'paste'] as const).map((choice) => (
          <label key={choice} className="checkbox">
            <input
              type="radio"
              name={`${id}-mode`}
              value={choice}
              checked={mode === choice}
              onChange={() => onMode(choice)}
            />
            {t(`input.${choice}`)}
          </label>
        ))}
      </fieldset>
      {mode === 'file' ? (
        <div className="field">
          <span className="label" id={`${id}-file-label`}>
            {t('input.file_label')}
          </span>
          {/* The browser's own file button speaks the browser's language; this one speaks the admin's. */}
          <span className="import-file">
            <label className="btn import-file__button">
              <input
                type="file"
                className="visually-hidden"
                accept=".xlsx,.csv,.docx,.txt,.xml,.gift"
                aria-labelledby={`${id}-file-label`}
                aria-describedby={`${id}-file-name ${id}-file-hint`}
                aria-invalid={missing || undefined}
                onChange={(event) => onFile(event.target.files?.[0] ?? null)}
              />
              {t('input.choose')}
            </label>
            <span id={`${id}-file-name`}>{file ? file.name : t('input.no_file')}</span>
          </span>
          <span id={`${id}-file-hint`} className="field__hint">
            {t('input.file_hint')}
          </span>
        </div>
      ) : (
        <div className="field">
          <label htmlFor={`${id}-text`}>{t('input.text_label')}</label>
          <textarea
            id={`${id}-text`}
            rows={10}
            value={text}
            aria-describedby={`${id}-text-hint`}
            aria-invalid={missing || undefined}
            onChange={(event) => onText(event.target.value)}
          />
          <span id={`${id}-text-hint`} className="field__hint">
            {t('input.text_hint')}
          </span>
        </div>
      )}
      {missing && <p className="field__error">{t('errors.no_input')}</p>}
    </>
  )
}
