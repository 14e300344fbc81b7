import { useId } from 'react'
import { useFormContext, type UseFieldArrayReturn } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { useFieldMessage } from '../../../components/ui/form/field-message'
import {
  MAX_MULTIPLE_OPTIONS,
  MAX_OPTIONS,
  MIN_OPTIONS,
  canAddOption,
  canRemoveOption,
  emptyOption,
  type QuestionDraft,
} from './question-draft'
import { OptionFields } from './option-fields'
import type { BankFieldsDraft } from '../bank/bank-draft'
import '../admin.i18n'

interface ChoiceOptionsProps {
  /** The form's option list, kept by the form so that a switch to written and back keeps each option's place. */
  options: UseFieldArrayReturn<QuestionDraft & BankFieldsDraft, 'options'>
  /** A multiple question: every right option ticked (at least one), 2 to 8 options. */
  several?: boolean
  /** The type became one right option with several ticked, and none was kept (the admin says which one is right). */
  clearedSeveral?: boolean
}

/** A choice question's options: one marked correct, added and removed within the bounds. */
export function ChoiceOptions({ options, several = false, clearedSeveral = false }: ChoiceOptionsProps) {
  const { t } = useTranslation('admin')
  const form = useFormContext<QuestionDraft & BankFieldsDraft>()
  const optionsHintId = useId()
  const radioName = useId()
  const message = useFieldMessage()
  const optionsError = message(form.formState.errors.root?.options)

  // Per option, not the whole list: replacing the list would remount every option and lose the keyboard's place.
  const markCorrect = (correct: number) =>
    form.getValues('options').forEach((_, index) => form.setValue(`options.${index}.is_correct`, index === correct))
  const removeOption = (index: number) => {
    const wasCorrect = form.getValues(`options.${index}.is_correct`)
    options.remove(index)
    // The list always has one correct option: removing it makes the first remaining one correct. A multiple
    // question's right set is the admin's to keep (the server refuses an empty one at `options`).
    if (wasCorrect && !several) markCorrect(0)
  }

  return (
    <fieldset className="admin-options" aria-describedby={optionsHintId}>
      <legend>{t('question_form.options')}</legend>
      <p id={optionsHintId} className="field__hint">
        {several
          ? t('types.multiple.options_hint', { min: MIN_OPTIONS, max: MAX_MULTIPLE_OPTIONS })
          : t('question_form.options_hint', { min: MIN_OPTIONS, max: MAX_OPTIONS })}
      </p>
      {clearedSeveral && (
        <p className="field__hint" role="status">
          {t('types.multiple.cleared')}
        </p>
      )}
      {optionsError && <p className="field__error">{optionsError}</p>}
      {options.fields.map((option, index) => (
        <OptionFields
          key={option.id}
          index={index}
          radioName={radioName}
          several={several}
          canRemove={canRemoveOption(options.fields.length)}
          onMarkCorrect={() => markCorrect(index)}
          onRemove={() => removeOption(index)}
        />
      ))}
      <Button
        disabled={!canAddOption(options.fields.length) || (several && options.fields.length >= MAX_MULTIPLE_OPTIONS)}
        onClick={() => options.append(emptyOption(false), { shouldFocus: false })}
      >
        {t('question_form.add_option')}
      </Button>
    </fieldset>
  )
}
