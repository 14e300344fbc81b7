import { useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { RichPreview } from '../../../components/ui/rich-text'
import { useBilingual, useLanguage } from '../../../i18n/use-bilingual'
import { preview } from '../../../lib/preview'
import { useDeleteQuestion, type AdminQuestion, type AdminQuiz } from './quizzes.api'
import { ConfirmDeleteDialog } from '../confirm-dialog'
import { QuestionForm } from './question-form'
import '../admin.i18n'
import { Button } from '../../../components/ui/button'

/** SPEC.md section 9: the admin question list shows the first 80 characters of each question. */
export const QUESTION_PREVIEW_LENGTH = 80

type Editor = { question: AdminQuestion | null } | null
type Outcome = 'saved' | 'deleted' | 'delete_failed' | null

/** Section "Questions": the list with Edit and Delete, "+ Add New Question" and the question editor. */
export function QuestionsSection({ quiz }: { quiz: AdminQuiz }) {
  const { t } = useTranslation('admin')
  const pick = useBilingual()
  const language = useLanguage()
  const deleteQuestion = useDeleteQuestion(quiz.id)
  const [editor, setEditor] = useState<Editor>(null)
  const [editorRun, setEditorRun] = useState(0)
  const [toDelete, setToDelete] = useState<{ question: AdminQuestion; n: number } | null>(null)
  const [outcome, setOutcome] = useState<Outcome>(null)
  const addButton = useRef<HTMLButtonElement>(null)
  const headingId = useId()

  const label = (question: AdminQuestion, n: number) =>
    t('questions.item', { n, text: preview(pick(question.text), QUESTION_PREVIEW_LENGTH, language) })

  const openEditor = (question: AdminQuestion | null) => {
    setOutcome(null)
    setEditor({ question })
    // A fresh form each time, even when the same question is opened again.
    setEditorRun((run) => run + 1)
  }

  const closeEditor = (result: Outcome) => {
    setEditor(null)
    setOutcome(result)
    addButton.current?.focus()
  }

  const confirmDelete = () => {
    if (!toDelete) return
    const { question } = toDelete
    deleteQuestion.mutate(question.id, {
      onSuccess: () => {
        if (editor?.question?.id === question.id) setEditor(null)
        setOutcome('deleted')
      },
      onError: () => setOutcome('delete_failed'),
      onSettled: () => setToDelete(null),
    })
  }

  return (
    <section className="card admin-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('questions.heading')}</h2>

      {outcome === 'saved' && <Alert kind="success">{t('questions.saved')}</Alert>}
      {outcome === 'deleted' && <Alert kind="success">{t('questions.deleted')}</Alert>}
      {outcome === 'delete_failed' && <Alert kind="error">{t('questions.delete_failed')}</Alert>}

      {quiz.questions.length === 0 ? (
        <p className="muted">{t('questions.empty')}</p>
      ) : (
        <ol className="admin-questions">
          {quiz.questions.map((question, index) => {
            const n = index + 1
            return (
              <li
                key={question.id}
                className={`admin-questions__item${editor?.question?.id === question.id ? ' admin-questions__item--editing' : ''}`}
              >
                <span className="admin-questions__text">
                  {t('questions.number', { n })}{' '}
                  <RichPreview text={question.text} maxLength={QUESTION_PREVIEW_LENGTH} />
                </span>
                <span className="actions">
                  <Button small onClick={() => openEditor(question)} aria-label={t('questions.edit_named', { n })}>
                    {t('common.edit')}
                  </Button>
                  <Button
                    variant="danger"
                    small
                    onClick={() => {
                      setOutcome(null)
                      setToDelete({ question, n })
                    }}
                    aria-label={t('questions.delete_named', { n })}
                  >
                    {t('common.delete')}
                  </Button>
                </span>
              </li>
            )
          })}
        </ol>
      )}

      <p className="actions">
        <Button ref={addButton} variant="primary" onClick={() => openEditor(null)}>
          {t('questions.add')}
        </Button>
      </p>

      {editor && (
        <QuestionForm
          key={editorRun}
          quizId={quiz.id}
          question={editor.question}
          onCancel={() => closeEditor(null)}
          onSaved={() => closeEditor('saved')}
        />
      )}

      <ConfirmDeleteDialog
        open={toDelete !== null}
        title={t('questions.delete_title')}
        message={t('questions.confirm_delete')}
        subject={toDelete ? label(toDelete.question, toDelete.n) : undefined}
        pending={deleteQuestion.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </section>
  )
}
