import { useController, useFormContext, useFormState, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { ImportValues } from './import-form'
import './import.i18n'

interface ImportInputFieldsProps {
  id: string
  /** Another file, text or mode is another input: what was read from the old one no longer applies. */
  onNewInput: () => void
  /** Typing changes the text a little at a time: only a text already read is another input. */
  onTextEdit: () => void
}

/** A file or pasted text, by a radio pair (the server refuses both at once). */
export function ImportInputFields({ id, onNewInput, onTextEdit }: ImportInputFieldsProps) {
  const { t } = useTranslation('import')
  const { register, control } = useFormContext<ImportValues>()
  const mode = useWatch({ control, name: 'mode' })
  // The file goes to the form as a File (not the input's FileList); nothing focuses it, so it needs no ref.
  const {
    field: { value: file, onChange: chooseFile },
  } = useController({ control, name: 'file' })
  const { errors } = useFormState({ control })
  const missing = Boolean(errors.file || errors.text)
  return (
    <>
      <fieldset className="import-mode">
        <legend>{t('input.legend')}</legend>
        {(['file', 'paste'] as const).map((choice) => (
          <label key={choice} className="checkbox">
            <input type="radio" value={choice} {...register('mode', { onChange: onNewInput })} />
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
                onChange={(event) => {
                  chooseFile(event.target.files?.[0] ?? null)
                  onNewInput()
                }}
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
            aria-describedby={`${id}-text-hint`}
            aria-invalid={missing || undefined}
            {...register('text', { onChange: onTextEdit })}
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
