import { DROP_POLICIES, KEY_ACTIONS } from '@quiz/contracts/rules/challenges'
import { useTranslation } from 'react-i18next'
import { Field } from '../../../components/ui/form/field'
import { useLanguage } from '../../../i18n/use-bilingual'
import { optionLetter } from '../../../lib/option-letters'
import type { Draft } from './decision-draft'
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
  onChoose,
}: ChoiceProps & { onChoose: (action: Draft['action']) => void }) {
  const { t } = useTranslation('admin')
  return (
    <fieldset aria-describedby={error ? `${ids}-action` : undefined}>
      <legend>{t('key_challenges.decision.action')}</legend>
      {KEY_ACTIONS.map((action) => (
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
  options,
  onToggle,
}: ChoiceProps & {
  options: FlaggedQuestion['question']['options']
  onToggle: (optionId: number, on: boolean) => void
}) {
  const { t } = useTranslation('admin')
  const language = useLanguage()
  return (
    <fieldset aria-describedby={error ? `${ids}-correct` : undefined} aria-invalid={Boolean(error)}>
      <legend>
        {draft.action === 'change'
          ? t('key_challenges.decision.right_option')
          : t('key_challenges.decision.right_options')}
      </legend>
      {options.map((option, index) => (
        <label key={option.id} className="key-decision__choice">
          <input
            type={draft.action === 'change' ? 'radio' : 'checkbox'}
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
