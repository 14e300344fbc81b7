import { useId } from 'react'
import { useFormContext, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { TextField } from '../../../components/ui/form/fields'
import { useLanguage } from '../../../i18n/use-bilingual'
import { numericPreview, toDevanagari, type QuestionDraft } from './question-draft'
import '../admin.i18n'

/**
 * A numeric question's key (API.md "Question types"): a value with a tolerance or a range, the decimals a learner
 * may type, and a preview of what the exam screen will accept, read by the contracts' number rule.
 */
export function NumericQuestionFields() {
  const { t } = useTranslation('admin')
  const { control, register } = useFormContext<QuestionDraft>()
  const numeric = useWatch({ control, name: 'numeric' })
  const previewId = useId()
  const preview = numericPreview(numeric)
  // Numbers in Nepali sentences are written in Devanagari digits; what a learner types stays as typed.
  const digits = useLanguage() === 'ne' ? toDevanagari : (text: string) => text

  return (
    <fieldset className="admin-numeric" aria-describedby={previewId}>
      <legend>{t('types.numeric.heading')}</legend>
      <div role="radiogroup" aria-label={t('types.numeric.mode')} className="admin-question-type">
        {(['value', 'range'] as const).map((mode) => (
          <label key={mode} className="admin-question-type__choice">
            <input type="radio" value={mode} {...register('numeric.mode')} />
            <span>{t(`types.numeric.mode_${mode}`)}</span>
          </label>
        ))}
      </div>
      <div className="admin-grid">
        {numeric.mode === 'range' ? (
          <>
            <TextField<QuestionDraft> name="numeric.min" label={t('types.numeric.min')} />
            <TextField<QuestionDraft> name="numeric.max" label={t('types.numeric.max')} />
          </>
        ) : (
          <>
            <TextField<QuestionDraft> name="numeric.value" label={t('types.numeric.value')} />
            <TextField<QuestionDraft>
              name="numeric.tolerance"
              label={t('types.numeric.tolerance')}
              hint={t('types.numeric.tolerance_hint')}
            />
          </>
        )}
        <TextField<QuestionDraft>
          name="numeric.decimals"
          label={t('types.numeric.decimals')}
          hint={t('types.numeric.decimals_hint')}
        />
      </div>
      <div id={previewId} className="admin-numeric__preview" aria-live="polite">
        <h4>{t('types.numeric.preview')}</h4>
        {preview ? (
          <>
            <p className="admin-numeric__accepts">
              {preview.low === preview.high
                ? t('types.numeric.accepts_one', { value: digits(preview.low) })
                : t('types.numeric.accepts_range', { low: digits(preview.low), high: digits(preview.high) })}{' '}
              {preview.decimals === null
                ? t('types.numeric.any_decimals')
                : preview.decimals === 0
                  ? t('types.numeric.whole_only')
                  : t('types.numeric.at_most_decimals', {
                      count: preview.decimals,
                      n: digits(String(preview.decimals)),
                    })}
            </p>
            <ul>
              {preview.examples.map((example) => (
                <li key={example.typed}>
                  <code>{example.typed}</code>{' '}
                  {example.reads === null
                    ? t('types.numeric.example_refused')
                    : example.accepted
                      ? t('types.numeric.example_right', { value: digits(example.reads) })
                      : t('types.numeric.example_wrong', { value: digits(example.reads) })}
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p>{t('types.numeric.preview_none')}</p>
        )}
      </div>
    </fieldset>
  )
}
