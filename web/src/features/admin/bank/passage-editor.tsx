import { useQueries } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { RichPreview } from '../../../components/ui/rich-text'
import { ErrorList, errorLines, fieldErrorsOf, setServerErrors } from '../../../components/ui/form/server-errors'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { AdminForm, BilingualFields, pairFields, sendAsTyped, useAdminMessages } from '../forms'
import { BankPicker } from '../paper/bank-picker'
import { mathsPreview } from '../quizzes/maths-preview'
import { imageDraft, imagePayload, type ImageDraft } from '../quizzes/question-draft'
import { imageFields, SvgField } from '../quizzes/svg-field'
import { SubmitButton } from '../ui'
import { bankQueries } from './bank.api'
import { useSavePassage, useSetPassageQuestions, type Passage } from './passages.api'
import './bank.i18n'

const QUESTION_PREVIEW_LENGTH = 100

interface PassageDraft {
  text: { en: string; ne: string }
  image: ImageDraft
}

/** The server's paths of a passage's body and the fields that show them. */
const PASSAGE_FIELDS: Record<string, string> = { ...pairFields('text'), ...imageFields('image') }

interface PassageEditorProps {
  passage: Passage | null
  onCancel: () => void
  onSaved: () => void
}

/**
 * A passage: its text (with the maths preview), picture and its questions in order, added from the bank and moved
 * with buttons. Saved in two steps (the body, then the questions); a question of another passage is named in a
 * sentence at its row (409 `in_another_passage`) and the next save edits the passage the first step created.
 */
export function PassageEditor({ passage, onCancel, onSaved }: PassageEditorProps) {
  const { t } = useTranslation('bank')
  const language = useLanguage()
  const messages = useAdminMessages()
  const headingId = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  const form = useForm<PassageDraft>({
    resolver: sendAsTyped(),
    defaultValues: {
      text: { en: passage?.text.en ?? '', ne: passage?.text.ne ?? '' },
      image: imageDraft(passage?.image),
    },
  })
  const [questionIds, setQuestionIds] = useState<number[]>(passage?.question_ids ?? [])
  const [savedId, setSavedId] = useState<number | null>(passage?.id ?? null)
  const [picking, setPicking] = useState(false)
  const [refusal, setRefusal] = useState<{ lines: string[] } | null>(null)
  const [questionErrors, setQuestionErrors] = useState<Record<number, string>>({})
  const save = useSavePassage()
  const setQuestions = useSetPassageQuestions()
  const texts = useQueries({ queries: questionIds.map((id) => ({ ...bankQueries.question(id), staleTime: 60_000 })) })
  const n = (value: number) => formatNumber(value, language)

  useEffect(() => heading.current?.focus(), [])

  const submit = async (draft: PassageDraft) => {
    setRefusal(null)
    setQuestionErrors({})
    const body = { text: { en: draft.text.en, ne: draft.text.ne }, image: imagePayload(draft.image) }
    let id = savedId
    try {
      id = (await save.mutateAsync({ id, passage: body })).id
      setSavedId(id)
    } catch (error) {
      setServerErrors(form.setError, error, PASSAGE_FIELDS as never)
      setRefusal({ lines: errorLines(fieldErrorsOf(error), Object.keys(PASSAGE_FIELDS)) })
      return
    }
    try {
      await setQuestions.mutateAsync({ id, questionIds })
      onSaved()
    } catch (error) {
      const byRow: Record<number, string> = {}
      const other: string[] = []
      for (const [path, lines] of Object.entries(fieldErrorsOf(error))) {
        const at = /^question_ids\.(\d+)$/.exec(path)
        const questionId = at ? questionIds[Number(at[1])] : undefined
        if (questionId === undefined) {
          other.push(...lines.map(messages))
          continue
        }
        byRow[questionId] =
          error instanceof ApiError && error.code === 'in_another_passage'
            ? t('passages.in_another', { id: n(questionId) })
            : lines.map(messages).join(' ')
      }
      setQuestionErrors(byRow)
      setRefusal({ lines: other })
    }
  }

  const move = (at: number, by: -1 | 1) =>
    setQuestionIds((ids) => {
      const moved = [...ids]
      const [id] = moved.splice(at, 1)
      moved.splice(at + by, 0, id!)
      return moved
    })

  return (
    <section className="card admin-section passage-editor" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        {passage ? t('passages.edit_heading') : t('passages.new_heading')}
      </h2>
      <AdminForm form={form} messages={messages} refusal={refusal} onSubmit={form.handleSubmit(submit)}>
        <BilingualFields
          labels={{ en: t('passages.text_en'), ne: t('passages.text_ne') }}
          rows={8}
          name="text"
          preview={mathsPreview}
        />
        <SvgField
          label={t('passages.image')}
          pictureLabel={t('passages.picture')}
          captionEnLabel={t('passages.caption_en')}
          captionNeLabel={t('passages.caption_ne')}
          name="image"
        />
        <fieldset className="passage-questions">
          <legend>{t('passages.questions')}</legend>
          {questionIds.length === 0 ? (
            <p className="muted">{t('passages.no_questions')}</p>
          ) : (
            <ol className="paper-items">
              {questionIds.map((id, at) => {
                const text = texts[at]?.data?.text
                const error = questionErrors[id]
                return (
                  <li key={id} className="paper-item paper-fixed">
                    <span className="paper-fixed__text">
                      <span className="muted">#{n(id)}</span>{' '}
                      {text && <RichPreview text={text} maxLength={QUESTION_PREVIEW_LENGTH} />}
                      {error && <span className="field__error paper-fixed__error">{error}</span>}
                    </span>
                    <span className="actions">
                      <Button
                        small
                        disabled={at === 0}
                        onClick={() => move(at, -1)}
                        aria-label={t('passages.up', { n: n(at + 1) })}
                      >
                        ↑
                      </Button>
                      <Button
                        small
                        disabled={at === questionIds.length - 1}
                        onClick={() => move(at, 1)}
                        aria-label={t('passages.down', { n: n(at + 1) })}
                      >
                        ↓
                      </Button>
                      <Button
                        small
                        variant="danger"
                        onClick={() => setQuestionIds((ids) => ids.filter((other) => other !== id))}
                        aria-label={t('passages.remove_named', { n: n(at + 1) })}
                      >
                        {t('passages.remove')}
                      </Button>
                    </span>
                  </li>
                )
              })}
            </ol>
          )}
          <Button onClick={() => setPicking(true)}>{t('passages.add_questions')}</Button>
        </fieldset>
        {refusal && (
          <Alert kind="error">
            {t('passages.save_failed')}
            <ErrorList lines={refusal.lines} />
          </Alert>
        )}
        <div className="actions admin-form-actions">
          <Button onClick={onCancel} disabled={save.isPending || setQuestions.isPending}>
            {t('passages.cancel')}
          </Button>
          <SubmitButton pending={save.isPending || setQuestions.isPending} busy={t('passages.save')}>
            {t('passages.save')}
          </SubmitButton>
        </div>
      </AdminForm>
      {picking && (
        <BankPicker
          sectionName={passage ? t('passages.edit_heading') : t('passages.new_heading')}
          inPaper={new Set(questionIds)}
          onClose={() => setPicking(false)}
          onPick={(rows) =>
            setQuestionIds((ids) => [...ids, ...rows.map((row) => row.id).filter((id) => !ids.includes(id))])
          }
        />
      )}
    </section>
  )
}
