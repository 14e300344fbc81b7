import { DIFFICULTIES } from '@quiz/contracts/rules/difficulty'
import { ImportFormatSchema, LegacyFontChoiceSchema } from '@quiz/contracts'
import { useFormContext, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { ImportValues } from './import-form'
import './import.i18n'

const formats = ImportFormatSchema.options
const legacyFonts = LegacyFontChoiceSchema.options

/**
 * How the input is read: its format (guessed by the server at first) and its legacy Nepali fonts. `onChange`: one
 * of them changed (the form already holds the new value).
 */
export function ReadingSettings({ id, onChange }: { id: string; onChange: () => void }) {
  const { t } = useTranslation('import')
  const { register, control } = useFormContext<ImportValues>()
  // Pasted text cannot be a workbook or a Word file.
  const pasted = useWatch({ control, name: 'mode' }) === 'paste'
  const choices = formats.filter((choice) => (pasted ? choice !== 'xlsx' && choice !== 'docx' : true))
  return (
    <div className="import-settings">
      <div className="field">
        <label htmlFor={`${id}-format`}>{t('settings.format')}</label>
        <select id={`${id}-format`} {...register('format', { onChange })}>
          <option value="">{t('settings.format_auto')}</option>
          {choices.map((choice) => (
            <option key={choice} value={choice}>
              {t(`formats.${choice}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-font`}>{t('settings.legacy_font')}</label>
        <select id={`${id}-font`} aria-describedby={`${id}-font-hint`} {...register('legacyFont', { onChange })}>
          {legacyFonts.map((choice) => (
            <option key={choice} value={choice}>
              {t(`fonts.${choice}`)}
            </option>
          ))}
        </select>
        <span id={`${id}-font-hint`} className="field__hint">
          {t('settings.legacy_font_hint')}
        </span>
      </div>
    </div>
  )
}

/** The defaults given to rows that lack them. */
export function DefaultsFields({ id }: { id: string }) {
  const { t } = useTranslation('import')
  const { register } = useFormContext<ImportValues>()
  const hinted = (name: 'tags' | 'source') => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{t(`defaults.${name}`)}</label>
      <input id={`${id}-${name}`} aria-describedby={`${id}-${name}-hint`} {...register(`defaults.${name}`)} />
      <span id={`${id}-${name}-hint`} className="field__hint">
        {t(`defaults.${name}_hint`)}
      </span>
    </div>
  )
  return (
    <fieldset className="import-defaults">
      <legend>{t('defaults.legend')}</legend>
      <div className="field">
        <label htmlFor={`${id}-topic`}>{t('defaults.topic')}</label>
        <input id={`${id}-topic`} {...register('defaults.topic')} />
      </div>
      {hinted('tags')}
      <div className="field">
        <label htmlFor={`${id}-difficulty`}>{t('defaults.difficulty')}</label>
        <select id={`${id}-difficulty`} {...register('defaults.difficulty')}>
          <option value="">{t('defaults.difficulty_none')}</option>
          {DIFFICULTIES.map((choice) => (
            <option key={choice} value={choice}>
              {t(`difficulty.${choice}`)}
            </option>
          ))}
        </select>
      </div>
      {hinted('source')}
    </fieldset>
  )
}
