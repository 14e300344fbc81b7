import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/form/field'
import { ActionChoice, CorrectOptionsChoice, DropPolicyField, NumericKeyChoice } from './decision-choices'
import { actionsFor, bodyOf, checkDraft, FIELDS, numericDraftOf, type Draft, type FieldName } from './decision-draft'
import { DecisionPreview } from './decision-preview'
import { decideKey, flagKeys, type FlaggedQuestion, type KeyDecisionResult } from './key-challenges.api'
import '../admin.i18n'

/**
 * Keep, change, accept several or drop (with its policy), and a note the flaggers receive. "Preview" is the
 * server's dry run: what would change, attempt by attempt and rank by rank; "Apply" commits exactly what was
 * previewed and is offered only while the form still says the same.
 */
export function DecisionForm({
  item,
  onDone,
  onApplied,
}: {
  item: FlaggedQuestion
  onDone: () => void
  /** The outcome in words, for the page to keep once the decided question leaves the open queue. */
  onApplied: (message: string) => void
}) {
  const { t } = useTranslation('admin')
  const counted = useCounted()
  const queryClient = useQueryClient()
  const ids = useId()
  const { type } = item.question
  // A one-answer question's change names one option; a multiple question's its whole right set (decision 128).
  const single = type !== 'multiple'
  const current = item.question.options.filter((option) => option.is_correct).map((option) => option.id)
  const [draft, setDraft] = useState<Draft>({
    action: 'keep',
    correct: current,
    dropPolicy: 'full_marks_all',
    note: '',
    numeric: numericDraftOf(item.question.answer),
  })
  const [checked, setChecked] = useState(false)
  const [preview, setPreview] = useState<{ key: string; result: KeyDecisionResult } | null>(null)
  const [applied, setApplied] = useState<KeyDecisionResult | null>(null)
  const body = bodyOf(item, draft)
  const key = JSON.stringify(body)
  const problems = checked ? checkDraft(draft, type) : {}

  const send = useMutation({
    mutationFn: (dryRun: boolean) => decideKey(item.question.id, { ...body, dry_run: dryRun }),
    onSuccess: (result, dryRun) => {
      if (dryRun) setPreview({ key, result })
      else {
        setApplied(result)
        setPreview(null)
        onApplied(t('key_challenges.decision.applied', { version: result.key_version ?? '', ...counted(result) }))
        void queryClient.invalidateQueries({ queryKey: flagKeys.all })
      }
    },
  })
  const serverErrors = send.error instanceof ApiError ? (send.error.errors ?? {}) : {}
  const fieldError = (name: FieldName): string | null => {
    const problem = problems[name]
    return problem ? t(`key_challenges.decision.${problem}`) : (serverErrors[name]?.[0] ?? null)
  }
  const otherErrors = Object.entries(serverErrors).filter(([path]) => !FIELDS.includes(path))

  const set = (patch: Partial<Draft>) => {
    setDraft((value) => ({ ...value, ...patch }))
    send.reset()
  }
  const toggle = (optionId: number, on: boolean) =>
    set({
      correct:
        draft.action === 'change' && single
          ? [optionId]
          : on
            ? [...draft.correct, optionId]
            : draft.correct.filter((id) => id !== optionId),
    })
  const previewFresh = preview !== null && preview.key === key

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setChecked(true)
    if (Object.keys(checkDraft(draft, type)).length > 0) return
    send.mutate(true)
  }

  if (applied) {
    return (
      <div className="stack">
        <Alert kind="success">
          {t('key_challenges.decision.applied', { version: applied.key_version ?? '', ...counted(applied) })}
        </Alert>
        <p>
          <Button onClick={onDone}>{t('key_challenges.decision.close')}</Button>
        </p>
      </div>
    )
  }

  return (
    <form className="key-decision stack" onSubmit={submit} noValidate aria-label={t('key_challenges.decision.title')}>
      <ActionChoice
        draft={draft}
        ids={ids}
        error={fieldError('action')}
        actions={actionsFor(type)}
        onChoose={(action) => set({ action, correct: action === 'change' && single ? current.slice(0, 1) : current })}
      />
      {draft.action === 'change' && type === 'numeric' && (
        <NumericKeyChoice
          value={draft.numeric}
          ids={ids}
          error={fieldError('answer')}
          onChange={(numeric) => set({ numeric })}
        />
      )}
      {(draft.action === 'change' || draft.action === 'accept_several') && type !== 'numeric' && (
        <CorrectOptionsChoice
          draft={draft}
          ids={ids}
          single={draft.action === 'change' && single}
          error={fieldError('correct_option_ids')}
          options={item.question.options}
          onToggle={toggle}
        />
      )}
      {draft.action === 'drop' && (
        <DropPolicyField
          value={draft.dropPolicy}
          error={fieldError('drop_policy')}
          onChange={(dropPolicy) => set({ dropPolicy })}
        />
      )}

      <Field
        label={t('key_challenges.decision.note')}
        hint={t('key_challenges.decision.note_hint')}
        error={fieldError('note')}
        required
      >
        {(control) => (
          <textarea {...control} rows={3} value={draft.note} onChange={(event) => set({ note: event.target.value })} />
        )}
      </Field>

      <DecisionErrors error={send.error} others={otherErrors} anyOnFields={FIELDS.some((name) => serverErrors[name])} />

      <DecisionButtons send={send} previewFresh={previewFresh} onApply={() => send.mutate(false)} onCancel={onDone} />
      {previewFresh && <DecisionPreview item={item} result={preview.result} counted={counted} />}
    </form>
  )
}

/** The server's refusals no field shows, or the plain failure when it named no field. */
function DecisionErrors({
  error,
  others,
  anyOnFields,
}: {
  error: Error | null
  others: [string, string[]][]
  anyOnFields: boolean
}) {
  const { t } = useTranslation('admin')
  return (
    <>
      {others.map(([path, messages]) => (
        <Alert key={path} kind="error">
          {path}: {messages.join(' ')}
        </Alert>
      ))}
      {error && others.length === 0 && !anyOnFields && (
        <Alert kind="error">
          {error instanceof ApiError && error.status === 409
            ? t('key_challenges.decision.conflict')
            : t('key_challenges.decision.failed')}
        </Alert>
      )}
    </>
  )
}

/** Preview (the dry run), Apply (only while the preview is fresh) and Cancel, with the help that says why. */
function DecisionButtons({
  send,
  previewFresh,
  onApply,
  onCancel,
}: {
  send: { isPending: boolean; variables: boolean | undefined }
  previewFresh: boolean
  onApply: () => void
  onCancel: () => void
}) {
  const { t } = useTranslation('admin')
  return (
    <>
      <div className="actions">
        <Button type="submit" disabled={send.isPending}>
          {send.isPending && send.variables
            ? t('key_challenges.decision.previewing')
            : t('key_challenges.decision.preview')}
        </Button>
        <Button variant="primary" disabled={!previewFresh || send.isPending} onClick={onApply}>
          {send.isPending && send.variables === false
            ? t('key_challenges.decision.applying')
            : t('key_challenges.decision.apply')}
        </Button>
        <Button onClick={onCancel} disabled={send.isPending}>
          {t('key_challenges.decision.cancel')}
        </Button>
      </div>
      {!previewFresh && <p className="muted">{t('key_challenges.decision.apply_help')}</p>}
    </>
  )
}

/** "3 attempts", "2 learners": a decision's reach, for the preview and the outcome. */
function useCounted() {
  const { t } = useTranslation('admin')
  return (result: KeyDecisionResult) => ({
    attempts: t('key_challenges.preview.attempts', { count: result.attempts_affected }),
    learners: t('key_challenges.preview.learners', { count: result.learners_affected }),
  })
}
