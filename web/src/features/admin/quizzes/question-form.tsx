import { useId, useEffect, useRef, useState } from 'react'
import { useFieldArray, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { useFieldMessage } from '../../../components/ui/form/field-message'
import {
  ErrorList,
  errorLines,
  fieldErrorsOf,
  setServerErrors,
  type ServerFields,
} from '../../../components/ui/form/server-errors'
import { TextField } from '../../../components/ui/form/fields'
import { useSaveQuestion, type AdminQuestion } from './quizzes.api'
import { sendAsTyped, useAdminMessages, AdminForm, BilingualFields, pairFields } from '../forms'
import {
  MAX_OPTIONS,
  MIN_OPTIONS,
  canAddOption,
  canRemoveOption,
  draftFromQuestion,
  emptyOption,
  newQuestionDraft,
  toQuestionPayload,
  type QuestionDraft,
} from './question-draft'
import { KeyDecisionNotice } from './key-decision-notice'
import { mathsPreview } from './maths-preview'
import { OptionFields } from './option-fields'
import { imageFields, SvgField } from './svg-field'
import { bankFieldsDraft, toBankFields, type BankFieldsDraft } from '../bank/bank-draft'
import { BankFields, bankFieldPaths } from '../bank/bank-fields'
import { SubmitButton } from '../ui'
import '../admin.i18n'
import { Button } from '../../../components/ui/button'
import { RubricEditor } from '../rubric/rubric-editor'
import { RescoreDialog, useRubricDraft } from '../rubric/rubric-save'

/**
 * The server's field paths of a question with this many options and the fields that show them; the rest go to
 * the summary. A message about the option list shows above it, one about an option at its head.
 */
function questionFields(optionCount: number): Record<string, string> {
  const fields: Record<string, string> = {
    ...pairFields('text'),
    ...pairFields('hint'),
    topic: 'topic',
    ...bankFieldPaths(),
    ...imageFields('image'),
    options: 'root.options',
    type: 'type',
    marks: 'marks',
    word_limit: 'word_limit',
    ...pairFields('model_answer'),
  }
  for (let index = 0; index < optionCount; index += 1) {
    const path = `options.${index}`
    Object.assign(fields, pairFields(`${path}.text`), imageFields(`${path}.image`), {
      [path]: `${path}.is_correct`,
      [`${path}.is_correct`]: `${path}.is_correct`,
    })
  }
  return fields
}

interface QuestionFormProps {
  /** The quiz whose question this is; null for a question of the bank alone. */
  quizId: number | null
  /** The question being edited; null for "Add New Question". */
  question: AdminQuestion | null
  onCancel: () => void
  onSaved: () => void
}

/** The question editor: it closes on a successful save or on Cancel and stays open, with the server's errors, when refused. */
export function QuestionForm({ quizId, question, onCancel, onSaved }: QuestionFormProps) {
  const { t } = useTranslation('admin')
  const save = useSaveQuestion(quizId)
  const form = useForm<QuestionDraft & BankFieldsDraft>({
    // SPEC.md section 5: no required-field checks here; the server's field errors say what is missing.
    resolver: sendAsTyped(),
    defaultValues: { ...(question ? draftFromQuestion(question) : newQuestionDraft()), ...bankFieldsDraft(question) },
  })
  const options = useFieldArray({ control: form.control, name: 'options' })
  const written = useWatch({ control: form.control, name: 'type' }) === 'written'
  // A question created by a save whose rubric was then refused: the next save edits it rather than adding another.
  const [savedId, setSavedId] = useState<number | null>(question?.id ?? null)
  const rubric = useRubricDraft(question?.id ?? null, written)
  // A refused save, with the server's lines no field shows.
  const [refusal, setRefusal] = useState<{ lines: string[] } | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const headingId = useId()
  const optionsHintId = useId()
  const radioName = useId()
  const messages = useAdminMessages()
  const message = useFieldMessage()
  const optionsError = message(form.formState.errors.root?.options)

  // Opening the editor moves the keyboard (and the screen) to it.
  useEffect(() => heading.current?.focus(), [])

  const submit = (draft: QuestionDraft & BankFieldsDraft) => {
    setRefusal(null)
    save.mutate(
      { questionId: savedId, question: { ...toQuestionPayload(draft), ...toBankFields(draft) } },
      {
        onSuccess: async (saved) => {
          const existed = savedId !== null
          setSavedId(saved.id)
          if (draft.type !== 'written') return onSaved()
          // The rubric belongs to the question: it is saved once the question has an id.
          if (await rubric.save(saved.id, existed)) onSaved()
        },
        onError: (error) => {
          const fields = questionFields(draft.options.length)
          setServerErrors(form.setError, error, fields as ServerFields<QuestionDraft>)
          setRefusal({ lines: errorLines(fieldErrorsOf(error), Object.keys(fields)) })
        },
      },
    )
  }

  // Per option, not the whole list: replacing the list would remount every option and lose the keyboard's place.
  const markCorrect = (correct: number) =>
    form.getValues('options').forEach((_, index) => form.setValue(`options.${index}.is_correct`, index === correct))
  const removeOption = (index: number) => {
    const wasCorrect = form.getValues(`options.${index}.is_correct`)
    options.remove(index)
    // The list always has one correct option: removing it makes the first remaining one correct.
    if (wasCorrect) markCorrect(0)
  }

  return (
    <section className="card admin-section admin-question-form" aria-labelledby={headingId}>
      <h3 id={headingId} ref={heading} tabIndex={-1}>
        {question ? t('question_form.edit_heading') : t('question_form.new_heading')}
      </h3>
      {question && <KeyDecisionNotice question={question} />}
      <AdminForm form={form} messages={messages} refusal={refusal} onSubmit={form.handleSubmit(submit)}>
        <fieldset className="admin-question-type">
          <legend>{t('written.type')}</legend>
          {(['choice', 'written'] as const).map((type) => (
            <label key={type} className="admin-question-type__choice">
              <input type="radio" value={type} {...form.register('type')} />
              <span>{t(`written.type_${type}`)}</span>
            </label>
          ))}
        </fieldset>
        <BilingualFields
          labels={{ en: t('question_form.text_en'), ne: t('question_form.text_ne') }}
          rows={3}
          name="text"
          preview={mathsPreview}
        />
        <SvgField
          label={t('question_form.image')}
          pictureLabel={t('question_form.picture')}
          captionEnLabel={t('question_form.image_caption_en')}
          captionNeLabel={t('question_form.image_caption_ne')}
          name="image"
        />
        <div className="admin-grid">
          <BilingualFields
            labels={{ en: t('question_form.hint_en'), ne: t('question_form.hint_ne') }}
            rows={2}
            name="hint"
            preview={mathsPreview}
          />
        </div>
        <TextField<QuestionDraft> name="topic" label={t('question_form.topic')} />
        <BankFields />

        {written ? (
          <>
            <div className="admin-grid">
              <TextField<QuestionDraft> name="marks" label={t('written.marks')} hint={t('written.marks_hint')} />
              <TextField<QuestionDraft>
                name="word_limit"
                label={t('written.word_limit')}
                hint={t('written.word_limit_hint')}
              />
            </div>
            <BilingualFields
              labels={{ en: t('written.model_answer_en'), ne: t('written.model_answer_ne') }}
              rows={4}
              name="model_answer"
              preview={mathsPreview}
            />
            {rubric.loading ? (
              <p className="muted">{t('written.rubric.loading')}</p>
            ) : (
              <RubricEditor draft={rubric.draft} onChange={rubric.setDraft} disabled={rubric.saving} />
            )}
            {rubric.problem?.kind === 'changed' && (
              <Alert kind="error">
                {t('written.rubric.changed')}{' '}
                <Button small onClick={() => void rubric.reload()}>
                  {t('written.rubric.reload')}
                </Button>
              </Alert>
            )}
            {rubric.problem?.kind === 'refused' && (
              <Alert kind="error">
                {t('written.rubric.refused')}
                <ErrorList lines={rubric.problem.lines} />
              </Alert>
            )}
          </>
        ) : (
          <fieldset className="admin-options" aria-describedby={optionsHintId}>
            <legend>{t('question_form.options')}</legend>
            <p id={optionsHintId} className="field__hint">
              {t('question_form.options_hint', { min: MIN_OPTIONS, max: MAX_OPTIONS })}
            </p>
            {optionsError && <p className="field__error">{optionsError}</p>}
            {options.fields.map((option, index) => (
              <OptionFields
                key={option.id}
                index={index}
                radioName={radioName}
                canRemove={canRemoveOption(options.fields.length)}
                onMarkCorrect={() => markCorrect(index)}
                onRemove={() => removeOption(index)}
              />
            ))}
            <Button
              disabled={!canAddOption(options.fields.length)}
              onClick={() => options.append(emptyOption(false), { shouldFocus: false })}
            >
              {t('question_form.add_option')}
            </Button>
          </fieldset>
        )}

        {refusal && (
          <Alert kind="error">
            {t('question_form.save_failed')}
            <ErrorList lines={refusal.lines} />
          </Alert>
        )}
        <div className="actions admin-form-actions">
          <Button onClick={onCancel} disabled={save.isPending}>
            {t('common.cancel')}
          </Button>
          <SubmitButton pending={save.isPending || rubric.saving} busy={t('common.saving')}>
            {t('question_form.save')}
          </SubmitButton>
        </div>
      </AdminForm>
      <RescoreDialog
        rescored={rubric.confirming?.rescored ?? null}
        pending={rubric.saving}
        onCancel={rubric.cancelConfirm}
        onConfirm={() => void rubric.confirm().then((stored) => stored && onSaved())}
      />
    </section>
  )
}
