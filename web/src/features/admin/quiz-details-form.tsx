import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../components/ui/alert'
import { useUpdateQuizDetails, type AdminQuiz, type Difficulty, type QuizDetailsPayload } from './admin.api'
import { isoToLocalInput, localInputToIso } from './datetime'
import { ErrorList, TextField, errorLines, fieldErrorsOf, unclaimedPaths, type FieldErrors } from './form-fields'

// SPEC.md section 9: the form's defaults where the quiz has no value.
const DEFAULT_DURATION = 90
const DEFAULT_ATTEMPTS = 3
const DEFAULT_DIFFICULTY: Difficulty = 'medium'
const DIFFICULTIES: Difficulty[] = ['easy', 'medium', 'hard']

interface DetailsForm {
  titleEn: string
  titleNe: string
  start: string
  end: string
  duration: string
  attempts: string
  difficulty: Difficulty
  isPaid: boolean
  shuffleQuestions: boolean
  shuffleOptions: boolean
}

function formFromQuiz(quiz: AdminQuiz): DetailsForm {
  return {
    titleEn: quiz.title.en,
    titleNe: quiz.title.ne ?? '',
    start: isoToLocalInput(quiz.start_time),
    end: isoToLocalInput(quiz.end_time),
    duration: String(quiz.duration_minutes ?? DEFAULT_DURATION),
    attempts: String(quiz.allowed_attempts ?? DEFAULT_ATTEMPTS),
    difficulty: DIFFICULTIES.includes(quiz.difficulty) ? quiz.difficulty : DEFAULT_DIFFICULTY,
    isPaid: quiz.is_paid_tier ?? false,
    shuffleQuestions: quiz.shuffle_questions ?? false,
    shuffleOptions: quiz.shuffle_options ?? false,
  }
}

const toInteger = (value: string) => (value.trim() === '' ? null : Number(value))

/**
 * The pickers show minutes only: a time left untouched keeps its exact stored value (seconds included)
 * instead of being rounded down to the minute on every save.
 */
function timeToSend(value: string, savedIso: string | null): string | null {
  if (savedIso && value === isoToLocalInput(savedIso)) return savedIso
  return localInputToIso(value)
}

// Every field path of PATCH /api/admin/quizzes/{id}/ this form shows beside its field.
const DETAIL_PATHS = [
  'title',
  'title.en',
  'title.ne',
  'start_time',
  'end_time',
  'duration_minutes',
  'allowed_attempts',
  'difficulty',
  'is_paid_tier',
  'shuffle_questions',
  'shuffle_options',
]

/** Section "Quiz Details": PATCH /api/admin/quizzes/{id}/ with every field of the form. */
export function QuizDetailsForm({ quiz }: { quiz: AdminQuiz }) {
  const { t } = useTranslation('admin')
  const update = useUpdateQuizDetails(quiz.id)
  const [saved, setSaved] = useState({ start: quiz.start_time, end: quiz.end_time })
  const [form, setForm] = useState(() => formFromQuiz(quiz))
  const [outcome, setOutcome] = useState<{ ok: true } | { ok: false; errors: FieldErrors } | null>(null)
  const headingId = useId()
  const difficultyId = useId()
  const paidId = useId()
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone

  const errors = outcome && !outcome.ok ? outcome.errors : {}
  const formElement = useRef<HTMLFormElement>(null)
  // A refused save: go to the first field the server named.
  useEffect(() => {
    if (outcome && !outcome.ok) formElement.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [outcome])
  const set = <K extends keyof DetailsForm>(key: K, value: DetailsForm[K]) =>
    setForm((current) => ({ ...current, [key]: value }))

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const details: QuizDetailsPayload = {
      title: { en: form.titleEn, ne: form.titleNe },
      start_time: timeToSend(form.start, saved.start),
      end_time: timeToSend(form.end, saved.end),
      duration_minutes: toInteger(form.duration),
      allowed_attempts: toInteger(form.attempts),
      difficulty: form.difficulty,
      is_paid_tier: form.isPaid,
      shuffle_questions: form.shuffleQuestions,
      shuffle_options: form.shuffleOptions,
    }
    setOutcome(null)
    update.mutate(details, {
      onSuccess: (updated) => {
        setSaved({ start: updated.start_time, end: updated.end_time })
        setForm(formFromQuiz(updated))
        setOutcome({ ok: true })
      },
      onError: (error) => setOutcome({ ok: false, errors: fieldErrorsOf(error) }),
    })
  }

  return (
    <section className="card admin-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('details.heading')}</h2>
      <form ref={formElement} onSubmit={submit} noValidate>
        <div className="admin-grid">
          <TextField
            label={t('details.title_en')}
            value={form.titleEn}
            onChange={(value) => set('titleEn', value)}
            errors={[...(errors.title ?? []), ...(errors['title.en'] ?? [])]}
          />
          <TextField
            label={t('details.title_ne')}
            lang="ne"
            value={form.titleNe}
            onChange={(value) => set('titleNe', value)}
            errors={errors['title.ne']}
          />
          <TextField
            label={t('details.start_time')}
            type="datetime-local"
            value={form.start}
            onChange={(value) => set('start', value)}
            errors={errors.start_time}
            hint={t('details.time_zone', { zone: timeZone })}
          />
          <TextField
            label={t('details.end_time')}
            type="datetime-local"
            value={form.end}
            onChange={(value) => set('end', value)}
            errors={errors.end_time}
            hint={t('details.end_time_hint')}
          >
            {form.end && (
              <button type="button" className="link-button admin-clear" onClick={() => set('end', '')}>
                {t('details.clear_end_time')}
              </button>
            )}
          </TextField>
          <TextField
            label={t('details.duration')}
            type="number"
            value={form.duration}
            onChange={(value) => set('duration', value)}
            errors={errors.duration_minutes}
          />
          <TextField
            label={t('details.attempts')}
            type="number"
            value={form.attempts}
            onChange={(value) => set('attempts', value)}
            errors={errors.allowed_attempts}
          />
          <div className="field">
            <label htmlFor={difficultyId}>{t('details.difficulty')}</label>
            <select
              id={difficultyId}
              value={form.difficulty}
              aria-invalid={errors.difficulty ? true : undefined}
              aria-describedby={errors.difficulty ? `${difficultyId}-error` : undefined}
              onChange={(event) => set('difficulty', event.target.value as Difficulty)}
            >
              {DIFFICULTIES.map((difficulty) => (
                <option key={difficulty} value={difficulty}>
                  {t(`difficulty.${difficulty}`)}
                </option>
              ))}
            </select>
            {errors.difficulty && (
              <span id={`${difficultyId}-error`} className="field__error">
                {errors.difficulty.join(' ')}
              </span>
            )}
          </div>
          <div className="field admin-grid__checkbox">
            <div className="checkbox">
              <input
                id={paidId}
                type="checkbox"
                checked={form.isPaid}
                onChange={(event) => set('isPaid', event.target.checked)}
              />
              <label htmlFor={paidId}>{t('details.paid_tier')}</label>
            </div>
            {errors.is_paid_tier && <span className="field__error">{errors.is_paid_tier.join(' ')}</span>}
          </div>
          <CheckboxField
            label={t('details.shuffle_questions')}
            hint={t('details.shuffle_questions_hint')}
            checked={form.shuffleQuestions}
            onChange={(checked) => set('shuffleQuestions', checked)}
            errors={errors.shuffle_questions}
          />
          <CheckboxField
            label={t('details.shuffle_options')}
            hint={t('details.shuffle_options_hint')}
            checked={form.shuffleOptions}
            onChange={(checked) => set('shuffleOptions', checked)}
            errors={errors.shuffle_options}
          />
        </div>

        {outcome?.ok === true && <Alert kind="success">{t('details.saved')}</Alert>}
        {outcome?.ok === false && (
          <Alert kind="error">
            {t('details.failed')}
            <ErrorList lines={errorLines(errors, unclaimedPaths(errors, DETAIL_PATHS))} />
          </Alert>
        )}
        <div className="actions">
          <button type="submit" className="btn btn--primary" disabled={update.isPending}>
            {update.isPending ? t('common.saving') : t('details.save')}
          </button>
        </div>
      </form>
    </section>
  )
}

/** A switch of the quiz (API.md "Exam feel": the shuffles), with a line saying what it does. */
function CheckboxField({
  label,
  hint,
  checked,
  onChange,
  errors,
}: {
  label: string
  hint: string
  checked: boolean
  onChange: (checked: boolean) => void
  errors?: string[]
}) {
  const id = useId()
  return (
    <div className="field admin-grid__checkbox">
      <div className="checkbox">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          aria-describedby={`${id}-hint`}
          onChange={(event) => onChange(event.target.checked)}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      <span id={`${id}-hint`} className="field__hint">
        {hint}
      </span>
      {errors && <span className="field__error">{errors.join(' ')}</span>}
    </div>
  )
}
