import { CHALLENGE_NOTE_LENGTH, FLAG_REASONS } from '@quiz/contracts/rules/challenges'
import { readNumber } from '@quiz/contracts/rules/numbers'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/api-error'
import { Alert } from '../../components/ui/alert'
import { NumericAnswer } from '../../components/answers/numeric-answer'
import { Button } from '../../components/ui/button'
import { Field } from '../../components/ui/form/field'
import { useBilingual, useLanguage } from '../../i18n/use-bilingual'
import type { Language } from '../../i18n/i18n'
import { digitsFor } from '../../lib/digits'
import { optionLetter } from '../../lib/option-letters'
import { preview } from '../../lib/preview'
import { flagQuestion, type FlagReason, type ReportFlag } from './challenges.api'
import type { ReportQuestion } from './results.api'
import { resultKeys } from './results.api'
import './results.i18n'

/** An option in the choice's list: enough to recognise it on a phone. */
const OPTION_PREVIEW_LENGTH = 60

interface ChallengeSectionProps {
  attemptId: number
  question: ReportQuestion
  flag: ReportFlag | null
  /** The attempt's challenge window is open (API.md: `challenge_days` after it finished). */
  windowOpen: boolean
}

const letterOf = (question: ReportQuestion, optionId: number | null, language: Language) => {
  const index = question.options.findIndex((option) => option.id === optionId)
  return index < 0 ? null : optionLetter(index, language)
}

/**
 * The report dialog's "Challenge the key": the learner's flag and its outcome once raised; while the window is open,
 * the form (a reason, optionally the option they think right, a note). A second challenge replaces the first.
 */
export function ChallengeSection({ attemptId, question, flag, windowOpen }: ChallengeSectionProps) {
  const { t } = useTranslation('results')
  const [editing, setEditing] = useState(false)
  // The server's 409 `challenge_closed` is the last word on the window when the report card does not carry it.
  const [closedByServer, setClosedByServer] = useState(false)
  const canChange = windowOpen && !closedByServer && (flag === null || flag.status === 'open')

  return (
    <section className="challenge" aria-labelledby={`challenge-${question.id}`}>
      <h3 id={`challenge-${question.id}`}>{t('challenge.heading')}</h3>
      {flag && !editing && <FlagSummary question={question} flag={flag} />}
      {editing ? (
        <ChallengeForm
          attemptId={attemptId}
          question={question}
          flag={flag}
          onDone={() => setEditing(false)}
          onClosed={() => {
            setClosedByServer(true)
            setEditing(false)
          }}
        />
      ) : canChange ? (
        <>
          {!flag && <p className="muted">{t('challenge.intro')}</p>}
          <Button onClick={() => setEditing(true)}>{flag ? t('challenge.change') : t('challenge.open')}</Button>
        </>
      ) : (
        (!flag || closedByServer) && <p className="muted">{t('challenge.closed')}</p>
      )}
    </section>
  )
}

function FlagSummary({ question, flag }: { question: ReportQuestion; flag: ReportFlag }) {
  const { t } = useTranslation('results')
  const language = useLanguage()
  // One option, a set's letters or a value, whichever the flag proposed.
  const proposed =
    flag.proposed_value !== null
      ? digitsFor(flag.proposed_value, language)
      : flag.proposed_option_ids !== null
        ? flag.proposed_option_ids.map((id) => letterOf(question, id, language)).join(', ')
        : letterOf(question, flag.proposed_option_id, language)
  const proposedLabel =
    flag.proposed_value !== null
      ? 'challenge.proposed_value_label'
      : flag.proposed_option_ids !== null
        ? 'challenge.proposed_set_label'
        : 'challenge.proposed_label'
  return (
    <dl className="challenge__summary">
      <div>
        <dt>{t('challenge.status_label')}</dt>
        <dd>
          <span className={`badge badge--flag-${flag.status}`}>{t(`challenge.status.${flag.status}`)}</span>
        </dd>
      </div>
      <div>
        <dt>{t('challenge.reason_label')}</dt>
        <dd>{t(`challenge.reasons.${flag.reason}`)}</dd>
      </div>
      {proposed && (
        <div>
          <dt>{t(proposedLabel)}</dt>
          <dd>{flag.proposed_value !== null ? proposed : t('challenge.option', { letter: proposed })}</dd>
        </div>
      )}
      {flag.note && (
        <div>
          <dt>{t('challenge.note_label')}</dt>
          <dd className="challenge__note">{flag.note}</dd>
        </div>
      )}
    </dl>
  )
}

interface Draft {
  reason: FlagReason | ''
  proposed: string
  /** A multiple question's proposed set. */
  proposedIds: number[]
  /** A numeric question's proposed value, as typed; null while empty or refused by the number rule. */
  proposedValue: string | null
  note: string
}

function ChallengeForm({
  attemptId,
  question,
  flag,
  onDone,
  onClosed,
}: {
  attemptId: number
  question: ReportQuestion
  flag: ReportFlag | null
  onDone: () => void
  onClosed: () => void
}) {
  const { t } = useTranslation('results')
  const pick = useBilingual()
  const language = useLanguage()
  const queryClient = useQueryClient()
  const ids = useId()
  const [draft, setDraft] = useState<Draft>({
    reason: flag?.reason ?? '',
    proposed: flag?.proposed_option_id ? String(flag.proposed_option_id) : '',
    proposedIds: flag?.proposed_option_ids ?? [],
    proposedValue: flag?.proposed_value ?? null,
    note: flag?.note ?? '',
  })
  const [reasonMissing, setReasonMissing] = useState(false)
  const send = useMutation({
    mutationFn: () =>
      flagQuestion(attemptId, {
        question_id: question.id,
        reason: draft.reason as FlagReason,
        ...(question.type === 'multiple'
          ? draft.proposedIds.length > 0
            ? { proposed_option_ids: draft.proposedIds }
            : {}
          : question.type === 'numeric'
            ? draft.proposedValue !== null
              ? { proposed_value: draft.proposedValue }
              : {}
            : draft.proposed
              ? { proposed_option_id: Number(draft.proposed) }
              : {}),
        ...(draft.note.trim() ? { note: draft.note.trim() } : {}),
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: resultKeys.report(attemptId) })
      onDone()
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'challenge_closed') onClosed()
    },
  })
  const serverErrors = send.error instanceof ApiError ? (send.error.errors ?? {}) : {}
  const inProgress = send.error instanceof ApiError && send.error.status === 409
  const fieldError = (path: string) => serverErrors[path]?.[0] ?? null

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!draft.reason) {
      setReasonMissing(true)
      return
    }
    // A value the number rule refuses is told under its field as typed and never sent.
    if (question.type === 'numeric' && draft.proposedValue !== null && !readNumber(draft.proposedValue).ok) return
    send.mutate()
  }
  const set = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }))
  const reasonError = reasonMissing && !draft.reason ? t('challenge.reason_required') : fieldError('reason')
  const noteLeft = CHALLENGE_NOTE_LENGTH - draft.note.length

  return (
    <form className="challenge__form stack" onSubmit={submit} noValidate>
      <fieldset aria-describedby={reasonError ? `${ids}-reason-error` : undefined} aria-invalid={Boolean(reasonError)}>
        <legend>{t('challenge.reason_label')}</legend>
        {FLAG_REASONS.map((reason) => (
          <label key={reason} className="challenge__reason">
            <input
              type="radio"
              name={`${ids}-reason`}
              value={reason}
              checked={draft.reason === reason}
              onChange={() => set({ reason })}
            />{' '}
            {t(`challenge.reasons.${reason}`)}
          </label>
        ))}
        {reasonError && (
          <span id={`${ids}-reason-error`} className="field__error">
            {reasonError}
          </span>
        )}
      </fieldset>
      {question.type === 'multiple' ? (
        <fieldset aria-describedby={fieldError('proposed_option_ids') ? `${ids}-set-error` : undefined}>
          <legend>{t('challenge.proposed_set_label')}</legend>
          <p className="field__hint">{t('challenge.proposed_hint')}</p>
          {question.options.map((option, index) => (
            <label key={option.id} className="challenge__reason">
              <input
                type="checkbox"
                checked={draft.proposedIds.includes(option.id)}
                onChange={(event) =>
                  set({
                    proposedIds: event.target.checked
                      ? [...draft.proposedIds, option.id]
                      : draft.proposedIds.filter((id) => id !== option.id),
                  })
                }
              />{' '}
              {t('challenge.option_text', {
                letter: optionLetter(index, language),
                text: preview(pick(option.text), OPTION_PREVIEW_LENGTH, language),
              })}
            </label>
          ))}
          {fieldError('proposed_option_ids') && (
            <span id={`${ids}-set-error`} className="field__error">
              {fieldError('proposed_option_ids')}
            </span>
          )}
        </fieldset>
      ) : question.type === 'numeric' ? (
        <div className="stack">
          <span id={`${ids}-value-label`}>{t('challenge.proposed_value_label')}</span>
          {/* The exam's own field: the contracts' number rule, refusals told as typed, Nepali digits read. */}
          <NumericAnswer
            answer={draft.proposedValue}
            decimals={null}
            labelledBy={`${ids}-value-label`}
            onAnswer={() => undefined}
            onTyped={(typed) => set({ proposedValue: typed.trim() === '' ? null : typed })}
          />
          {fieldError('proposed_value') && <span className="field__error">{fieldError('proposed_value')}</span>}
        </div>
      ) : (
        <Field
          label={t('challenge.proposed_label')}
          hint={t('challenge.proposed_hint')}
          error={fieldError('proposed_option_id')}
        >
          {(control) => (
            <select {...control} value={draft.proposed} onChange={(event) => set({ proposed: event.target.value })}>
              <option value="">{t('challenge.proposed_none')}</option>
              {question.options.map((option, index) => (
                <option key={option.id} value={option.id}>
                  {t('challenge.option_text', {
                    letter: optionLetter(index, language),
                    text: preview(pick(option.text), OPTION_PREVIEW_LENGTH, language),
                  })}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field
        label={t('challenge.note_label')}
        hint={t('challenge.note_hint', { count: noteLeft })}
        error={fieldError('note')}
      >
        {(control) => (
          <textarea
            {...control}
            rows={3}
            maxLength={CHALLENGE_NOTE_LENGTH}
            value={draft.note}
            onChange={(event) => set({ note: event.target.value })}
          />
        )}
      </Field>
      {send.isError && <Alert kind="error">{inProgress ? t('challenge.in_progress') : t('challenge.failed')}</Alert>}
      <div className="actions">
        <Button type="submit" variant="primary" disabled={send.isPending}>
          {send.isPending ? t('challenge.sending') : t('challenge.submit')}
        </Button>
        <Button onClick={onDone} disabled={send.isPending}>
          {t('challenge.cancel')}
        </Button>
      </div>
    </form>
  )
}
