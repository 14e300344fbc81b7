import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../components/ui/alert'
import { BilingualFields, SubmitButton } from './ui'
import { useUpdateQuizDetails, type AdminQuiz, type Difficulty, type QuizDetailsPayload } from './admin.api'
import { isoToLocalInput, localInputToIso } from './datetime'
import { Field } from '../../components/ui/form/field'
import { TextField } from '../../components/ui/form/text-field'
import { ErrorList, errorLines, fieldErrorsOf, type FieldErrors } from '../../components/ui/form/server-errors'
import './admin.i18n'

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
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone

  const errors = outcome && !outcome.ok ? outcome.errors : {}
  const formElement = useRef<HTMLFormElement>(null)
  // A refused save: go to the first field the server named.
  useEffect(() => {
    if (outcome && !outcome.ok) formElement.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [outcome])
  const set = <K extends keyof DetailsForm>(key: K, value: DetailsForm[K]) =>
    setForm((current) => ({ ...current, [key]: value }))
  /** A text field's value, change and server messages: its key in the form and its name in the API. */
  const bind = (key: 'start' | 'end' | 'duration' | 'attempts', path: string) => ({
    value: form[key],
    onChange: (value: string) => set(key, value),
    errors: errors[path],
  })

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
          <BilingualFields
            labels={{ en: t('details.title_en'), ne: t('details.title_ne') }}
            value={{ en: form.titleEn, ne: form.titleNe }}
            path="title"
            errors={errors}
            onChange={(language, title) => set(language === 'en' ? 'titleEn' : 'titleNe', title)}
          />
          <TextField
            label={t('details.start_time')}
            type="datetime-local"
            {...bind('start', 'start_time')}
            hint={t('details.time_zone', { zone: timeZone })}
          />
          <TextField
            label={t('details.end_time')}
            type="datetime-local"
            {...bind('end', 'end_time')}
            hint={t('details.end_time_hint')}
          >
            {form.end && (
              <button type="button" className="link-button admin-clear" onClick={() => set('end', '')}>
                {t('details.clear_end_time')}
              </button>
            )}
          </TextField>
          <TextField label={t('details.duration')} type="number" {...bind('duration', 'duration_minutes')} />
          <TextField label={t('details.attempts')} type="number" {...bind('attempts', 'allowed_attempts')} />
          <Field label={t('details.difficulty')} error={errors.difficulty?.join(' ')}>
            {(control) => (
              <select
                {...control}
                value={form.difficulty}
                onChange={(event) => set('difficulty', event.target.value as Difficulty)}
              >
                {DIFFICULTIES.map((difficulty) => (
                  <option key={difficulty} value={difficulty}>
                    {t(`difficulty.${difficulty}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <CheckboxField
            label={t('details.paid_tier')}
            checked={form.isPaid}
            onChange={(checked) => set('isPaid', checked)}
            errors={errors.is_paid_tier}
          />
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
            <ErrorList lines={errorLines(errors, DETAIL_PATHS)} />
          </Alert>
        )}
        <div className="actions">
          <SubmitButton pending={update.isPending} busy={t('common.saving')}>
            {t('details.save')}
          </SubmitButton>
        </div>
      </form>
    </section>
  )
}

/** A switch of the quiz (paid tier; API.md "Exam feel": the shuffles), with a line saying what it does if needed. */
function CheckboxField({
  label,
  hint,
  checked,
  onChange,
  errors,
}: {
  label: string
  hint?: string
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
          aria-describedby={hint ? `${id}-hint` : undefined}
          onChange={(event) => onChange(event.target.checked)}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      {hint && (
        <span id={`${id}-hint`} className="field__hint">
          {hint}
        </span>
      )}
      {errors && <span className="field__error">{errors.join(' ')}</span>}
    </div>
  )
}
