import { useId, useState } from 'react'
import { useFormContext, useFormState, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { useFieldMessage } from '../../../components/ui/form/field-message'
import { BilingualFields } from '../forms'
import { hasImage, type QuestionDraft } from './question-draft'
import { mathsPreview } from './maths-preview'
import { SvgField } from './svg-field'
import '../admin.i18n'

interface OptionFieldsProps {
  index: number
  radioName: string
  /** A multiple question's option: a checkbox, any number of them right. */
  several?: boolean
  canRemove: boolean
  onMarkCorrect: () => void
  onRemove: () => void
}

/** One option of the question form: its text, whether it is the right one, and its image (folded away unless set). */
export function OptionFields({
  index,
  radioName,
  several = false,
  canRemove,
  onMarkCorrect,
  onRemove,
}: OptionFieldsProps) {
  const { t } = useTranslation('admin')
  const { control, getFieldState, getValues, setValue } = useFormContext<QuestionDraft>()
  const path = `options.${index}` as const
  const isCorrect = useWatch({ control, name: `${path}.is_correct` })
  const formState = useFormState({ control, name: path })
  const imageInvalid = getFieldState(`${path}.image`, formState).invalid
  const optionError = useFieldMessage()(getFieldState(`${path}.is_correct`, formState).error)
  const [showImage, setShowImage] = useState(() => hasImage(getValues(`${path}.image`)))
  const radioId = useId()
  const n = index + 1

  return (
    <fieldset className={`admin-option${isCorrect ? ' admin-option--correct' : ''}`}>
      <legend>{t('question_form.option', { n })}</legend>
      <div className="admin-option__head">
        <div className="checkbox">
          <input
            id={radioId}
            type={several ? 'checkbox' : 'radio'}
            name={radioName}
            checked={isCorrect}
            onChange={several ? () => setValue(`${path}.is_correct`, !isCorrect, { shouldDirty: true }) : onMarkCorrect}
            aria-label={t('question_form.correct_named', { n })}
          />
          <label htmlFor={radioId}>{t('question_form.correct')}</label>
        </div>
        <Button
          small
          disabled={!canRemove}
          onClick={onRemove}
          aria-label={t('question_form.remove_option_named', { n })}
        >
          {t('question_form.remove_option')}
        </Button>
      </div>
      {optionError && <p className="field__error">{optionError}</p>}
      <div className="admin-grid">
        <BilingualFields
          labels={{ en: t('question_form.option_text_en'), ne: t('question_form.option_text_ne') }}
          name={`${path}.text`}
          preview={mathsPreview}
        />
      </div>
      <details
        className="admin-option__image"
        open={showImage || imageInvalid}
        onToggle={(event) => setShowImage(event.currentTarget.open)}
      >
        <summary>{t('question_form.option_image_toggle')}</summary>
        <SvgField
          label={t('question_form.option_image')}
          pictureLabel={t('question_form.option_picture')}
          captionEnLabel={t('question_form.option_caption_en')}
          captionNeLabel={t('question_form.option_caption_ne')}
          name={`${path}.image`}
        />
      </details>
    </fieldset>
  )
}
