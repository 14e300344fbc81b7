import { useId, useState, type FormEvent } from 'react'
import { Trans, useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError } from '../../api/api-error'
import { paths } from '../../lib/paths'
import { Alert } from '../../components/ui/alert'
import { SubmitButton } from './ui'
import { useCreateQuizFromJson } from './admin.api'
import { EXAMPLE_QUIZ_JSON } from './example-quiz'
import { ErrorList, errorLines, fieldErrorsOf } from '../../components/ui/form/server-errors'
import './admin.css'
import './admin.i18n'

type Outcome =
  { kind: 'invalid_json' } | { kind: 'created'; quizId: number } | { kind: 'failed'; error: unknown } | null

/** /admin/quiz/new: a whole quiz, questions included, pasted as JSON. */
export function Component() {
  const { t } = useTranslation('admin')
  const createQuiz = useCreateQuizFromJson()
  const [text, setText] = useState('')
  const [outcome, setOutcome] = useState<Outcome>(null)
  const textareaId = useId()
  const helpId = useId()

  const submit = (event: FormEvent) => {
    event.preventDefault()
    let quiz: unknown
    try {
      quiz = JSON.parse(text)
    } catch {
      setOutcome({ kind: 'invalid_json' })
      return
    }
    setOutcome(null)
    createQuiz.mutate(quiz, {
      onSuccess: ({ quiz_id }) => {
        setOutcome({ kind: 'created', quizId: quiz_id })
        setText('')
      },
      onError: (error) => setOutcome({ kind: 'failed', error }),
    })
  }

  return (
    <div className="admin">
      <p className="admin-back">
        <Link to={paths.admin()}>{t('common.back_to_dashboard')}</Link>
      </p>
      <h1>{t('create.title')}</h1>

      {outcome?.kind === 'invalid_json' && <Alert kind="error">{t('create.invalid_json')}</Alert>}
      {outcome?.kind === 'created' && (
        <Alert kind="success">
          {t('create.success', { id: outcome.quizId })}{' '}
          <Link to={paths.adminEditQuiz(outcome.quizId)}>{t('create.edit_created')}</Link>
        </Alert>
      )}
      {outcome?.kind === 'failed' && <CreateFailure error={outcome.error} />}

      <form className="card admin-form" onSubmit={submit}>
        <div className="field">
          <label htmlFor={textareaId}>{t('create.json_label')}</label>
          <textarea
            id={textareaId}
            className="admin-code admin-json"
            required
            rows={18}
            spellCheck={false}
            value={text}
            placeholder={t('create.json_placeholder')}
            aria-describedby={helpId}
            onChange={(event) => setText(event.target.value)}
          />
          <span id={helpId} className="field__hint">
            {t('create.json_hint')}
          </span>
        </div>
        <div className="actions">
          <SubmitButton pending={createQuiz.isPending} busy={t('create.creating')}>
            {t('create.submit')}
          </SubmitButton>
        </div>
      </form>

      <details className="card admin-format">
        <summary>{t('create.format_summary')}</summary>
        <p>{t('create.format_intro')}</p>
        <p>{t('create.format_rules')}</p>
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling block must take focus to scroll by keyboard (axe scrollable-region-focusable) */}
        <pre className="admin-code admin-example" tabIndex={0} aria-label={t('create.example_label')}>
          <code>{EXAMPLE_QUIZ_JSON}</code>
        </pre>
        <p className="actions">
          <button type="button" className="btn" onClick={() => setText(EXAMPLE_QUIZ_JSON)}>
            {t('create.use_example')}
          </button>
        </p>
        <p>
          <Trans t={t} i18nKey="create.format_docs" components={{ code: <code /> }} />{' '}
          <a href="/api/docs" target="_blank" rel="noreferrer">
            {t('create.api_docs')}
          </a>
        </p>
      </details>
    </div>
  )
}

function CreateFailure({ error }: { error: unknown }) {
  const { t } = useTranslation('admin')
  const lines = errorLines(fieldErrorsOf(error))
  if (lines.length > 0) {
    return (
      <Alert kind="error">
        {t('create.failed_with_errors')}
        <ErrorList lines={lines} />
      </Alert>
    )
  }
  const tooLarge = error instanceof ApiError && error.status === 413
  return <Alert kind="error">{tooLarge ? t('create.too_large') : t('create.failed')}</Alert>
}
