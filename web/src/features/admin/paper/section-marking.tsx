import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { MARKING_PRESETS, type MultipleScheme, type SectionDraft } from './paper-draft'
import { PaperInput, type PathErrors } from './paper-field'
import '../bank/bank.i18n'

interface SectionMarkingProps {
  section: SectionDraft
  /** `sections.S`, the server's path of the section. */
  path: string
  errors: PathErrors
  set: (patch: Partial<SectionDraft>) => void
}

/**
 * How the section marks several-option and numeric questions (API.md "Question types"): all or nothing, or partial
 * marks per right option; whether a wrong number loses marks; and the JEE Advanced and GATE presets by name.
 */
export function SectionMarking({ section, path, errors, set }: SectionMarkingProps) {
  const { t } = useTranslation('bank')
  const id = useId()
  const schemeError = errors(`${path}.multiple.scheme`) ?? errors(`${path}.multiple`)
  return (
    <fieldset className="paper-marking">
      <legend>{t('paper.multiple_heading')}</legend>
      <div className="actions paper-marking__presets" role="group" aria-label={t('paper.presets')}>
        <Button small onClick={() => set({ ...MARKING_PRESETS.jee_advanced })} aria-describedby={`${id}-jee`}>
          {t('paper.preset_jee')}
        </Button>
        <span id={`${id}-jee`} className="field__hint">
          {t('paper.preset_jee_hint')}
        </span>
        <Button small onClick={() => set({ ...MARKING_PRESETS.gate })} aria-describedby={`${id}-gate`}>
          {t('paper.preset_gate')}
        </Button>
        <span id={`${id}-gate`} className="field__hint">
          {t('paper.preset_gate_hint')}
        </span>
      </div>
      {(['all_or_nothing', 'partial'] as const satisfies readonly MultipleScheme[]).map((scheme) => (
        <div key={scheme} className="checkbox">
          <input
            id={`${id}-${scheme}`}
            type="radio"
            name={`${id}-scheme`}
            checked={section.multiple_scheme === scheme}
            onChange={() => set({ multiple_scheme: scheme })}
          />
          <label htmlFor={`${id}-${scheme}`}>
            {t(scheme === 'partial' ? 'paper.scheme_partial' : 'paper.scheme_all')}
          </label>
        </div>
      ))}
      {schemeError && <p className="field__error">{schemeError}</p>}
      {section.multiple_scheme === 'partial' && (
        <PaperInput
          label={t('paper.partial_marks')}
          hint={t('paper.partial_hint')}
          value={section.partial_marks}
          onChange={(partial_marks) => set({ partial_marks })}
          error={errors(`${path}.multiple.partial_marks`)}
          numeric
          className="paper-number"
        />
      )}
      <div className="checkbox">
        <input
          id={`${id}-numeric`}
          type="checkbox"
          checked={section.numeric_negative}
          onChange={(event) => set({ numeric_negative: event.target.checked })}
        />
        <label htmlFor={`${id}-numeric`}>{t('paper.numeric_negative')}</label>
      </div>
      {errors(`${path}.numeric_negative`) && <p className="field__error">{errors(`${path}.numeric_negative`)}</p>}
    </fieldset>
  )
}
