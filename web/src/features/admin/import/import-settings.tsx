import { DIFFICULTIES } from '@quiz/contracts/rules/difficulty'
import { ImportFormatSchema, LegacyFontChoiceSchema } from '@quiz/contracts'
import { useTranslation } from 'react-i18next'
import type { ImportFormat, LegacyFontChoice } from './import.api'
import './import.i18n'

const formats = ImportFormatSchema.options
const legacyFonts = LegacyFontChoiceSchema.options

export interface ImportDefaults {
  topic: string
  tags: string
  difficulty: string
  source: string
}

interface ReadingSettingsProps {
  id: string
  format: ImportFormat | ''
  onFormat: (format: ImportFormat | '') => void
  legacyFont: LegacyFontChoice
  onLegacyFont: (font: LegacyFontChoice) => void
  /** Pasted text cannot be a workbook or a Word file. */
  pasted: boolean
}

/** How the input is read: its format (guessed by the server at first) and its legacy Nepali fonts. */
export function ReadingSettings({ id, format, onFormat, legacyFont, onLegacyFont, pasted }: ReadingSettingsProps) {
  const { t } = useTranslation('import')
  const choices = formats.filter((choice) => (pasted ? choice !== 'xlsx' && choice !== 'docx' : true))
  return (
    <div className="import-settings">
      <div className="field">
        <label htmlFor={`${id}-format`}>{t('settings.format')}</label>
        <select
          id={`${id}-format`}
          value={format}
          onChange={(event) => onFormat(event.target.value as ImportFormat | '')}
        >
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
        <select
          id={`${id}-font`}
          value={legacyFont}
          aria-describedby={`${id}-font-hint`}
          onChange={(event) => onLegacyFont(event.target.value as LegacyFontChoice)}
        >
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
export function DefaultsFields({
  id,
  defaults,
  onChange,
}: {
  id: string
  defaults: ImportDefaults
  onChange: (defaults: ImportDefaults) => void
}) {
  const { t } = useTranslation('import')
  const set = (name: keyof ImportDefaults) => (value: string) => onChange({ ...defaults, [name]: value })
  const hinted = (name: 'tags' | 'source') => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{t(`defaults.${name}`)}</label>
      <input
        id={`${id}-${name}`}
        value={defaults[name]}
        aria-describedby={`${id}-${name}-hint`}
        onChange={(event) => set(name)(event.target.value)}
      />
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
        <input id={`${id}-topic`} value={defaults.topic} onChange={(event) => set('topic')(event.target.value)} />
      </div>
      {hinted('tags')}
      <div className="field">
        <label htmlFor={`${id}-difficulty`}>{t('defaults.difficulty')}</label>
        <select
          id={`${id}-difficulty`}
          value={defaults.difficulty}
          onChange={(event) => set('difficulty')(event.target.value)}
        >
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
