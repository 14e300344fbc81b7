import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../components/ui/alert'
import { BilingualFields, messagesAt, SubmitButton } from './ui'
import { useSaveQuestion, type AdminQuestion } from './admin.api'
import { TextField } from '../../components/ui/form/text-field'
import { ErrorList, errorLines, fieldErrorsOf, type FieldErrors } from '../../components/ui/form/server-errors'
import {
  MAX_OPTIONS,
  MIN_OPTIONS,
  addOption,
  canAddOption,
  canRemoveOption,
  draftFromQuestion,
  markCorrect,
  newQuestionDraft,
  removeOption,
  toQuestionPayload,
  updateOption,
  type OptionDraft,
  type QuestionDraft,
} from './question-draft'
import { SvgField, svgFieldPaths } from './svg-field'
import './admin.i18n'

/** Every field path of a question this form shows beside its field; the rest go to the summary. */
function questionPaths(optionCount: number): string[] {
  return [
    'text',
    'text.en',
    'text.ne',
    'hint',
    'hint.en',
    'hint.ne',
    'topic',
    ...svgFieldPaths('image'),
    'options',
    ...Array.from({ length: optionCount }, (_, index) => [
      `options.${index}`,
      `options.${index}.text`,
      `options.${index}.text.en`,
      `options.${index}.text.ne`,
      `options.${index}.is_correct`,
      ...svgFieldPaths(`options.${index}.image`),
    ]).flat(),
  ]
}

interface QuestionFormProps {
  quizId: number
  /** The question being edited; null for "Add New Question". */
  question: AdminQuestion | null
  onCancel: () => void
  onSaved: () => void
}

/** The question editor: it closes on a successful save or on Cancel and stays open, with the server's errors, on failure. */
export function QuestionForm({ quizId, question, onCancel, onSaved }: QuestionFormProps) {
  const { t } = useTranslation('admin')
  const save = useSaveQuestion(quizId)
  const [draft, setDraft] = useState<QuestionDraft>(() => (question ? draftFromQuestion(question) : newQuestionDraft()))
  const [errors, setErrors] = useState<FieldErrors | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const headingId = useId()
  const optionsHintId = useId()
  const radioName = useId()

  const form = useRef<HTMLFormElement>(null)

  // Opening the editor moves the keyboard (and the screen) to it.
  useEffect(() => heading.current?.focus(), [])
  // A refused save: go to the first field the server named (it may be far above the Save button).
  useEffect(() => {
    if (errors) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [errors])

  const setOptions = (change: (options: OptionDraft[]) => OptionDraft[]) =>
    setDraft((current) => ({ ...current, options: change(current.options) }))
  const fieldErrors = errors ?? {}

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setErrors(null)
    save.mutate(
      { questionId: question?.id ?? null, question: toQuestionPayload(draft) },
      { onSuccess: onSaved, onError: (error) => setErrors(fieldErrorsOf(error)) },
    )
  }

  return (
    <section className="card admin-section admin-question-form" aria-labelledby={headingId}>
      <h3 id={headingId} ref={heading} tabIndex={-1}>
        {question ? t('question_form.edit_heading') : t('question_form.new_heading')}
      </h3>
      <form ref={form} onSubmit={submit}>
        <BilingualFields
          labels={{ en: t('question_form.text_en'), ne: t('question_form.text_ne') }}
          rows={3}
          value={draft.text}
          path="text"
          errors={fieldErrors}
          onChange={(language, text) =>
            setDraft((current) => ({ ...current, text: { ...current.text, [language]: text } }))
          }
        />
        <SvgField
          label={t('question_form.image')}
          captionEnLabel={t('question_form.image_caption_en')}
          captionNeLabel={t('question_form.image_caption_ne')}
          image={draft.image}
          path="image"
          errors={fieldErrors}
          onChange={(image) => setDraft((current) => ({ ...current, image }))}
        />
        <div className="admin-grid">
          <BilingualFields
            labels={{ en: t('question_form.hint_en'), ne: t('question_form.hint_ne') }}
            rows={2}
            value={draft.hint}
            path="hint"
            errors={fieldErrors}
            onChange={(language, hint) =>
              setDraft((current) => ({ ...current, hint: { ...current.hint, [language]: hint } }))
            }
          />
        </div>
        <TextField
          label={t('question_form.topic')}
          value={draft.topic}
          errors={fieldErrors.topic}
          onChange={(value) => setDraft((current) => ({ ...current, topic: value }))}
        />

        <fieldset className="admin-options" aria-describedby={optionsHintId}>
          <legend>{t('question_form.options')}</legend>
          <p id={optionsHintId} className="field__hint">
            {t('question_form.options_hint', { min: MIN_OPTIONS, max: MAX_OPTIONS })}
          </p>
          {fieldErrors.options && <p className="field__error">{fieldErrors.options.join(' ')}</p>}
          {draft.options.map((option, index) => (
            <OptionFields
              key={option.key}
              option={option}
              index={index}
              radioName={radioName}
              errors={fieldErrors}
              canRemove={canRemoveOption(draft.options)}
              onChange={(change) => setOptions((options) => updateOption(options, option.key, change))}
              onMarkCorrect={() => setOptions((options) => markCorrect(options, option.key))}
              onRemove={() => setOptions((options) => removeOption(options, option.key))}
            />
          ))}
          <button
            type="button"
            className="btn"
            disabled={!canAddOption(draft.options)}
            onClick={() => setOptions(addOption)}
          >
            {t('question_form.add_option')}
          </button>
        </fieldset>

        {errors && (
          <Alert kind="error">
            {t('question_form.save_failed')}
            <ErrorList lines={errorLines(fieldErrors, questionPaths(draft.options.length))} />
          </Alert>
        )}
        <div className="actions admin-form-actions">
          <button type="button" className="btn" onClick={onCancel} disabled={save.isPending}>
            {t('common.cancel')}
          </button>
          <SubmitButton pending={save.isPending} busy={t('common.saving')}>
            {t('question_form.save')}
          </SubmitButton>
        </div>
      </form>
    </section>
  )
}

interface OptionFieldsProps {
  option: OptionDraft
  index: number
  radioName: string
  errors: FieldErrors
  canRemove: boolean
  onChange: (change: (option: OptionDraft) => OptionDraft) => void
  onMarkCorrect: () => void
  onRemove: () => void
}

function OptionFields({
  option,
  index,
  radioName,
  errors,
  canRemove,
  onChange,
  onMarkCorrect,
  onRemove,
}: OptionFieldsProps) {
  const { t } = useTranslation('admin')
  const n = index + 1
  const path = `options.${index}`
  const imageErrors = svgFieldPaths(`${path}.image`).some((key) => errors[key])
  const [showImage, setShowImage] = useState(option.image.svg.trim() !== '')
  const radioId = useId()
  const optionErrors = messagesAt(errors, path, `${path}.is_correct`)

  return (
    <fieldset className={`admin-option${option.isCorrect ? ' admin-option--correct' : ''}`}>
      <legend>{t('question_form.option', { n })}</legend>
      <div className="admin-option__head">
        <div className="checkbox">
          <input
            id={radioId}
            type="radio"
            name={radioName}
            checked={option.isCorrect}
            onChange={onMarkCorrect}
            aria-label={t('question_form.correct_named', { n })}
          />
          <label htmlFor={radioId}>{t('question_form.correct')}</label>
        </div>
        <button
          type="button"
          className="btn btn--small"
          disabled={!canRemove}
          onClick={onRemove}
          aria-label={t('question_form.remove_option_named', { n })}
        >
          {t('question_form.remove_option')}
        </button>
      </div>
      {optionErrors.length > 0 && <p className="field__error">{optionErrors.join(' ')}</p>}
      <div className="admin-grid">
        <BilingualFields
          labels={{ en: t('question_form.option_text_en'), ne: t('question_form.option_text_ne') }}
          value={option.text}
          path={`${path}.text`}
          errors={errors}
          onChange={(language, text) =>
            onChange((current) => ({ ...current, text: { ...current.text, [language]: text } }))
          }
        />
      </div>
      <details
        className="admin-option__image"
        open={showImage || imageErrors}
        onToggle={(event) => setShowImage(event.currentTarget.open)}
      >
        <summary>{t('question_form.option_image_toggle')}</summary>
        <SvgField
          label={t('question_form.option_image')}
          captionEnLabel={t('question_form.option_caption_en')}
          captionNeLabel={t('question_form.option_caption_ne')}
          image={option.image}
          path={`${path}.image`}
          errors={errors}
          onChange={(image) => onChange((current) => ({ ...current, image }))}
        />
      </details>
    </fieldset>
  )
}
