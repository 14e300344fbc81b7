import { useId, useEffect, useRef, useState } from 'react'
import { useFieldArray, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
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
import { draftFromQuestion, newQuestionDraft, toQuestionPayload, type QuestionDraft } from './question-draft'
import { KeyDecisionNotice } from './key-decision-notice'
import { mathsPreview } from './maths-preview'
import { ChoiceOptions } from './choice-options'
import { imageFields, SvgField } from './svg-field'
import { bankFieldsDraft, toBankFields, type BankFieldsDraft } from '../bank/bank-draft'
import { BankFields, bankFieldPaths } from '../bank/bank-fields'
import { SubmitButton } from '../ui'
import '../admin.i18n'
import { Button } from '../../../components/ui/button'
import { WrittenQuestionFields } from './written-question-fields'
import { NumericQuestionFields } from './numeric-question-fields'
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
    answer: 'numeric.value',
    'answer.value': 'numeric.value',
    'answer.tolerance': 'numeric.tolerance',
    'answer.min': 'numeric.min',
    'answer.max': 'numeric.max',
    decimals: 'numeric.decimals',
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
  /**
   * The platform's bank (its admins' screens, WEB.md "Institutes"): saved at its own address, and choice questions
   * alone, since written answers are marked by an institute's markers with a rubric of that institute's bank.
   */
  platform?: boolean
}

/** The question editor: it closes on a successful save or on Cancel and stays open, with the server's errors, when refused. */
export function QuestionForm({ quizId, question, onCancel, onSaved, platform = false }: QuestionFormProps) {
  const { t } = useTranslation('admin')
  const save = useSaveQuestion(quizId, platform ? '/platform/bank/questions/' : '/admin/bank/questions/')
  const form = useForm<QuestionDraft & BankFieldsDraft>({
    // SPEC.md section 5: no required-field checks here; the server's field errors say what is missing.
    resolver: sendAsTyped(),
    defaultValues: { ...(question ? draftFromQuestion(question) : newQuestionDraft()), ...bankFieldsDraft(question) },
  })
  const options = useFieldArray({ control: form.control, name: 'options' })
  const type = useWatch({ control: form.control, name: 'type' })
  const written = type === 'written'
  // A question created by a save whose rubric was then refused: the next save edits it rather than adding another.
  const [savedId, setSavedId] = useState<number | null>(question?.id ?? null)
  const rubric = useRubricDraft(question?.id ?? null, written)
  // A refused save, with the server's lines no field shows.
  const [refusal, setRefusal] = useState<{ lines: string[] } | null>(null)
  // From several right options to one with more than one ticked: which is right is the admin's to say, so none is
  // kept (the radios would show only the last as chosen while the form held them all), and the options say why.
  const [clearedSeveral, setClearedSeveral] = useState(false)
  const changeType = () => {
    const options = form.getValues('options')
    const several = options.filter((option) => option.is_correct).length > 1
    const cleared = form.getValues('type') === 'choice' && several
    if (cleared) options.forEach((_, index) => form.setValue(`options.${index}.is_correct`, false))
    setClearedSeveral(cleared)
  }
  const heading = useRef<HTMLHeadingElement>(null)
  const headingId = useId()
  const messages = useAdminMessages()

  // Opening the editor moves the keyboard (and the screen) to it.
  useEffect(() => heading.current?.focus(), [])

  const submit = (draft: QuestionDraft & BankFieldsDraft) => {
    setRefusal(null)
    save.mutate(
      { questionId: savedId, question: { ...toQuestionPayload(draft), ...toBankFields(draft, quizId === null) } },
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

  return (
    <section className="card admin-section admin-question-form" aria-labelledby={headingId}>
      <h3 id={headingId} ref={heading} tabIndex={-1}>
        {question ? t('question_form.edit_heading') : t('question_form.new_heading')}
      </h3>
      {question && <KeyDecisionNotice question={question} />}
      <AdminForm form={form} messages={messages} refusal={refusal} onSubmit={form.handleSubmit(submit)}>
        {!platform && (
          <fieldset className="admin-question-type">
            <legend>{t('written.type')}</legend>
            {(['choice', 'multiple', 'numeric', 'written'] as const).map((choice) => (
              <label key={choice} className="admin-question-type__choice">
                <input type="radio" value={choice} {...form.register('type', { onChange: changeType })} />
                <span>{t(`types.type_${choice}`)}</span>
              </label>
            ))}
          </fieldset>
        )}
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
        <BankFields inBank={quizId === null} />

        {written ? (
          <WrittenQuestionFields rubric={rubric} />
        ) : type === 'numeric' ? (
          <NumericQuestionFields />
        ) : (
          <ChoiceOptions key={type} options={options} several={type === 'multiple'} clearedSeveral={clearedSeveral} />
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
