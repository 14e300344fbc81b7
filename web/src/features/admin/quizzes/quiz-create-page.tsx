import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Trans, useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError } from '../../../api/api-error'
import { paths } from '../../../lib/paths'
import { Alert } from '../../../components/ui/alert'
import { TextField } from '../../../components/ui/form/fields'
import { createResolver, useAdminMessages, AdminForm } from '../forms'
import { SubmitButton } from '../ui'
import { useCreateQuizFromJson } from './quizzes.api'
import { EXAMPLE_QUIZ_JSON } from './example-quiz'
import { ErrorList, errorLines, fieldErrorsOf } from '../../../components/ui/form/server-errors'
import '../admin.css'
import '../admin.i18n'
import { Button } from '../../../components/ui/button'

type Outcome =
  { kind: 'invalid_json' } | { kind: 'created'; quizId: number } | { kind: 'failed'; error: unknown } | null

/** /admin/quiz/new: a whole quiz, questions included, pasted as JSON. */
export function Component() {
  const { t } = useTranslation('admin')
  const createQuiz = useCreateQuizFromJson()
  const form = useForm({ resolver: createResolver, defaultValues: { json: '' } })
  const [outcome, setOutcome] = useState<Outcome>(null)
  const messages = useAdminMessages()

  const submit = ({ json: quiz }: { json: unknown }) => {
    setOutcome(null)
    createQuiz.mutate(quiz, {
      onSuccess: ({ quiz_id }) => {
        setOutcome({ kind: 'created', quizId: quiz_id })
        form.reset({ json: '' })
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

      <AdminForm
        form={form}
        messages={messages}
        refusal={outcome?.kind === 'invalid_json' ? outcome : null}
        className="card admin-form"
        nativeValidation
        onSubmit={form.handleSubmit(submit, () => setOutcome({ kind: 'invalid_json' }))}
      >
        <TextField
          name="json"
          label={t('create.json_label')}
          className="admin-json"
          multiline
          code
          required
          rows={18}
          placeholder={t('create.json_placeholder')}
          hint={t('create.json_hint')}
        />
        <div className="actions">
          <SubmitButton pending={createQuiz.isPending} busy={t('create.creating')}>
            {t('create.submit')}
          </SubmitButton>
        </div>
      </AdminForm>

      <details className="card admin-format">
        <summary>{t('create.format_summary')}</summary>
        {/* JSON field names are code, not words (and never read as a raw translation key). */}
        <p>
          <Trans t={t} i18nKey="create.format_intro" components={{ code: <code /> }} />
        </p>
        <p>
          <Trans t={t} i18nKey="create.format_rules" components={{ code: <code /> }} />
        </p>
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling block must take focus to scroll by keyboard (axe scrollable-region-focusable) */}
        <pre className="admin-code admin-example" tabIndex={0} aria-label={t('create.example_label')}>
          <code>{EXAMPLE_QUIZ_JSON}</code>
        </pre>
        <p className="actions">
          <Button onClick={() => form.setValue('json', EXAMPLE_QUIZ_JSON)}>{t('create.use_example')}</Button>
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
