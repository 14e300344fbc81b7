import { DROP_POLICIES, KEY_ACTIONS } from '@quiz/contracts/rules/challenges'
import { useTranslation } from 'react-i18next'
import { Field } from '../../../components/ui/form/field'
import { useLanguage } from '../../../i18n/use-bilingual'
import { optionLetter } from '../../../lib/option-letters'
import type { Draft, NumericDraft } from './decision-draft'
import type { DropPolicy, FlaggedQuestion } from './key-challenges.api'
import '../admin.i18n'

// The decision form's choices: which action, which options are right, and how a dropped question scores.

interface ChoiceProps {
  draft: Draft
  /** The form's `useId()`, the stem of its radio names and error ids. */
  ids: string
  error: string | null
}

export function ActionChoice({
  draft,
  ids,
  error,
  actions = KEY_ACTIONS,
  onChoose,
}: ChoiceProps & { actions?: readonly Draft['action'][]; onChoose: (action: Draft['action']) => void }) {
  const { t } = useTranslation('admin')
  return (
    <fieldset aria-describedby={error ? `${ids}-action` : undefined}>
      <legend>{t('key_challenges.decision.action')}</legend>
      {actions.map((action) => (
        <label key={action} className="key-decision__choice">
          <input
            type="radio"
            name={`${ids}-action`}
            value={action}
            checked={draft.action === action}
            onChange={() => onChoose(action)}
          />{' '}
          <span>
            <strong>{t(`key_challenges.actions.${action}`)}</strong>
            <span className="muted"> {t(`key_challenges.actions.${action}_help`)}</span>
          </span>
        </label>
      ))}
      {error && (
        <span id={`${ids}-action`} className="field__error">
          {error}
        </span>
      )}
    </fieldset>
  )
}

/** The right option (Change) or options (Accept several), by letter. */
export function CorrectOptionsChoice({
  draft,
  ids,
  error,
  single,
  options,
  onToggle,
}: ChoiceProps & {
  /** One right option (a radio button each), or a set (checkboxes). */
  single: boolean
  options: FlaggedQuestion['question']['options']
  onToggle: (optionId: number, on: boolean) => void
}) {
  const { t } = useTranslation('admin')
  const language = useLanguage()
  return (
    <fieldset aria-describedby={error ? `${ids}-correct` : undefined} aria-invalid={Boolean(error)}>
      <legend>{single ? t('key_challenges.decision.right_option') : t('key_challenges.decision.right_options')}</legend>
      {options.map((option, index) => (
        <label key={option.id} className="key-decision__choice">
          <input
            type={single ? 'radio' : 'checkbox'}
            name={`${ids}-correct`}
            checked={draft.correct.includes(option.id)}
            onChange={(event) => onToggle(option.id, event.target.checked)}
          />{' '}
          {t('key_challenges.option', { letter: optionLetter(index, language) })}
        </label>
      ))}
      {error && (
        <span id={`${ids}-correct`} className="field__error">
          {error}
        </span>
      )}
    </fieldset>
  )
}

export function DropPolicyField({
  value,
  error,
  onChange,
}: {
  value: DropPolicy
  error: string | null
  onChange: (policy: DropPolicy) => void
}) {
  const { t } = useTranslation('admin')
  return (
    <Field label={t('key_challenges.decision.drop_policy')} error={error}>
      {(control) => (
        <select {...control} value={value} onChange={(event) => onChange(event.target.value as DropPolicy)}>
          {DROP_POLICIES.map((policy) => (
            <option key={policy} value={policy}>
              {t(`key_challenges.policies.${policy}`)}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}

/** A numeric question's new key: a value with a tolerance, or a range (the bank form's words for them). */
export function NumericKeyChoice({
  value,
  ids,
  error,
  onChange,
}: {
  value: NumericDraft
  ids: string
  error: string | null
  onChange: (numeric: NumericDraft) => void
}) {
  const { t } = useTranslation('admin')
  const field = (name: 'value' | 'tolerance' | 'min' | 'max') => (
    <label className="field">
      <span className="label">{t(`types.numeric.${name}`)}</span>
      <input
        type="text"
        inputMode="decimal"
        value={value[name]}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${ids}-answer` : undefined}
        onChange={(event) => onChange({ ...value, [name]: event.target.value })}
      />
    </label>
  )
  return (
    <fieldset aria-describedby={error ? `${ids}-answer` : undefined}>
      <legend>{t('key_challenges.decision.right_number')}</legend>
      {(['value', 'range'] as const).map((mode) => (
        <label key={mode} className="key-decision__choice">
          <input
            type="radio"
            name={`${ids}-numeric-mode`}
            checked={value.mode === mode}
            onChange={() => onChange({ ...value, mode })}
          />{' '}
          {t(`types.numeric.mode_${mode}`)}
        </label>
      ))}
      {value.mode === 'range' ? (
        <>
          {field('min')}
          {field('max')}
        </>
      ) : (
        <>
          {field('value')}
          {field('tolerance')}
        </>
      )}
      {error && (
        <span id={`${ids}-answer`} className="field__error">
          {error}
        </span>
      )}
    </fieldset>
  )
}
