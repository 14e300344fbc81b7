import { DROP_POLICIES, KEY_ACTIONS } from '@quiz/contracts/rules/challenges'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/form/field'
import { useLanguage } from '../../../i18n/use-bilingual'
import { optionLetter } from '../../../lib/option-letters'
import { bodyOf, checkDraft, FIELDS, type Draft, type FieldName } from './decision-draft'
import { DecisionPreview } from './decision-preview'
import {
  decideKey,
  flagKeys,
  type DropPolicy,
  type FlaggedQuestion,
  type KeyDecisionResult,
} from './key-challenges.api'
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
  const language = useLanguage()
  const queryClient = useQueryClient()
  const ids = useId()
  const current = item.question.options.filter((option) => option.is_correct).map((option) => option.id)
  const [draft, setDraft] = useState<Draft>({
    action: 'keep',
    correct: current,
    dropPolicy: 'full_marks_all',
    note: '',
  })
  const [checked, setChecked] = useState(false)
  const [preview, setPreview] = useState<{ key: string; result: KeyDecisionResult } | null>(null)
  const [applied, setApplied] = useState<KeyDecisionResult | null>(null)
  const body = bodyOf(item, draft)
  const key = JSON.stringify(body)
  const problems = checked ? checkDraft(draft) : {}

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
        draft.action === 'change'
          ? [optionId]
          : on
            ? [...draft.correct, optionId]
            : draft.correct.filter((id) => id !== optionId),
    })
  const previewFresh = preview !== null && preview.key === key

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setChecked(true)
    if (Object.keys(checkDraft(draft)).length > 0) return
    send.mutate(true)
  }

  const counted = (result: KeyDecisionResult) => ({
    attempts: t('key_challenges.preview.attempts', { count: result.attempts_affected }),
    learners: t('key_challenges.preview.learners', { count: result.learners_affected }),
  })

  if (applied) {
    return (
      <div className="stack">
        <Alert kind="success">
          {t('key_challenges.decision.applied', {
            version: applied.key_version ?? '',
            ...counted(applied),
          })}
        </Alert>
        <p>
          <Button onClick={onDone}>{t('key_challenges.decision.close')}</Button>
        </p>
      </div>
    )
  }

  return (
    <form className="key-decision stack" onSubmit={submit} noValidate aria-label={t('key_challenges.decision.title')}>
      <fieldset aria-describedby={fieldError('action') ? `${ids}-action` : undefined}>
        <legend>{t('key_challenges.decision.action')}</legend>
        {KEY_ACTIONS.map((action) => (
          <label key={action} className="key-decision__choice">
            <input
              type="radio"
              name={`${ids}-action`}
              value={action}
              checked={draft.action === action}
              onChange={() => set({ action, correct: action === 'change' ? current.slice(0, 1) : current })}
            />{' '}
            <span>
              <strong>{t(`key_challenges.actions.${action}`)}</strong>
              <span className="muted"> {t(`key_challenges.actions.${action}_help`)}</span>
            </span>
          </label>
        ))}
        {fieldError('action') && (
          <span id={`${ids}-action`} className="field__error">
            {fieldError('action')}
          </span>
        )}
      </fieldset>

      {(draft.action === 'change' || draft.action === 'accept_several') && (
        <fieldset
          aria-describedby={fieldError('correct_option_ids') ? `${ids}-correct` : undefined}
          aria-invalid={Boolean(fieldError('correct_option_ids'))}
        >
          <legend>
            {draft.action === 'change'
              ? t('key_challenges.decision.right_option')
              : t('key_challenges.decision.right_options')}
          </legend>
          {item.question.options.map((option, index) => (
            <label key={option.id} className="key-decision__choice">
              <input
                type={draft.action === 'change' ? 'radio' : 'checkbox'}
                name={`${ids}-correct`}
                checked={draft.correct.includes(option.id)}
                onChange={(event) => toggle(option.id, event.target.checked)}
              />{' '}
              {t('key_challenges.option', { letter: optionLetter(index, language) })}
            </label>
          ))}
          {fieldError('correct_option_ids') && (
            <span id={`${ids}-correct`} className="field__error">
              {fieldError('correct_option_ids')}
            </span>
          )}
        </fieldset>
      )}

      {draft.action === 'drop' && (
        <Field label={t('key_challenges.decision.drop_policy')} error={fieldError('drop_policy')}>
          {(control) => (
            <select
              {...control}
              value={draft.dropPolicy}
              onChange={(event) => set({ dropPolicy: event.target.value as DropPolicy })}
            >
              {DROP_POLICIES.map((policy) => (
                <option key={policy} value={policy}>
                  {t(`key_challenges.policies.${policy}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
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

      {otherErrors.map(([path, messages]) => (
        <Alert key={path} kind="error">
          {path}: {messages.join(' ')}
        </Alert>
      ))}
      {send.isError && otherErrors.length === 0 && !FIELDS.some((name) => serverErrors[name]) && (
        <Alert kind="error">
          {send.error instanceof ApiError && send.error.status === 409
            ? t('key_challenges.decision.conflict')
            : t('key_challenges.decision.failed')}
        </Alert>
      )}

      <div className="actions">
        <Button type="submit" disabled={send.isPending}>
          {send.isPending && send.variables
            ? t('key_challenges.decision.previewing')
            : t('key_challenges.decision.preview')}
        </Button>
        <Button variant="primary" disabled={!previewFresh || send.isPending} onClick={() => send.mutate(false)}>
          {send.isPending && send.variables === false
            ? t('key_challenges.decision.applying')
            : t('key_challenges.decision.apply')}
        </Button>
        <Button onClick={onDone} disabled={send.isPending}>
          {t('key_challenges.decision.cancel')}
        </Button>
      </div>
      {!previewFresh && <p className="muted">{t('key_challenges.decision.apply_help')}</p>}

      {previewFresh && <DecisionPreview item={item} result={preview.result} counted={counted} />}
    </form>
  )
}
