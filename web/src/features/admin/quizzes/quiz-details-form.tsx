import { DIFFICULTIES } from '@quiz/contracts/rules/difficulty'
import { useId, useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { paths } from '../../../lib/paths'
import { Alert } from '../../../components/ui/alert'
import {
  ErrorList,
  errorLines,
  fieldErrorsOf,
  setServerErrors,
  type ServerFields,
} from '../../../components/ui/form/server-errors'
import { CheckboxField, SelectField, TextField } from '../../../components/ui/form/fields'
import type { QuizPatch } from '@quiz/contracts'
import {
  useCreateQuiz,
  useUpdateQuizDetails,
  type AdminQuiz,
  type Bilingual,
  type Difficulty,
  type QuizDetailsPayload,
} from './quizzes.api'
import { isoToLocalInput, localInputToIso } from '../datetime'
import { sendAsTyped, useAdminMessages, AdminForm, BilingualFields, pairFields } from '../forms'
import { SubmitButton } from '../ui'
import '../admin.i18n'

// SPEC.md section 9: the form's defaults where the quiz has no value.
const DEFAULT_DURATION = 90
const DEFAULT_ATTEMPTS = 3
const DEFAULT_DIFFICULTY: Difficulty = 'medium'
/** API.md: a quiz's window to challenge its key, 7 days unless set. */
const DEFAULT_CHALLENGE_DAYS = 7
/** Join minutes offered when a quiz is first made a live mock (any of 1..180 may be typed). */
const DEFAULT_JOIN_MINUTES = 15

type Switches = Pick<Required<QuizPatch>, 'difficulty' | 'is_paid_tier' | 'shuffle_questions' | 'shuffle_options'>
/** The request's fields (QuizPatch) as the inputs hold them: numbers and local date-times as typed. */
interface DetailsValues extends Switches {
  title: Bilingual
  start_time: string
  end_time: string
  duration_minutes: string
  allowed_attempts: string
  challenge_days: string
  /** The live schedule (API.md "Live mocks"), kept while unticked so ticking again restores it. */
  is_live: boolean
  live: { starts_at: string; join_minutes: string }
}

function valuesFromQuiz(quiz: AdminQuiz): DetailsValues {
  return {
    title: { en: quiz.title.en, ne: quiz.title.ne ?? '' },
    start_time: isoToLocalInput(quiz.start_time),
    end_time: isoToLocalInput(quiz.end_time),
    duration_minutes: String(quiz.duration_minutes ?? DEFAULT_DURATION),
    allowed_attempts: String(quiz.allowed_attempts ?? DEFAULT_ATTEMPTS),
    challenge_days: String(quiz.challenge_days ?? DEFAULT_CHALLENGE_DAYS),
    difficulty: DIFFICULTIES.includes(quiz.difficulty) ? quiz.difficulty : DEFAULT_DIFFICULTY,
    is_paid_tier: quiz.is_paid_tier ?? false,
    shuffle_questions: quiz.shuffle_questions ?? false,
    shuffle_options: quiz.shuffle_options ?? false,
    is_live: Boolean(quiz.live),
    live: {
      starts_at: isoToLocalInput(quiz.live?.starts_at),
      join_minutes: String(quiz.live?.join_minutes ?? DEFAULT_JOIN_MINUTES),
    },
  }
}

/** A new quiz: SPEC.md's defaults, opening now with no end, as the server would fill them. */
function newQuizValues(): DetailsValues {
  return {
    title: { en: '', ne: '' },
    start_time: isoToLocalInput(new Date().toISOString()),
    end_time: '',
    duration_minutes: String(DEFAULT_DURATION),
    allowed_attempts: String(DEFAULT_ATTEMPTS),
    challenge_days: String(DEFAULT_CHALLENGE_DAYS),
    difficulty: DEFAULT_DIFFICULTY,
    is_paid_tier: false,
    shuffle_questions: false,
    shuffle_options: false,
    is_live: false,
    live: { starts_at: '', join_minutes: String(DEFAULT_JOIN_MINUTES) },
  }
}

/** An emptied number input goes as null, for the server to name beside the field. */
const toInteger = (value: string) => (value.trim() === '' ? null : Number(value))

/**
 * The pickers show minutes only: a time left untouched keeps its exact stored value (seconds included)
 * instead of being rounded down to the minute on every save.
 */
function timeToSend(value: string, savedIso: string | null): string | null {
  if (savedIso && value === isoToLocalInput(savedIso)) return savedIso
  return localInputToIso(value)
}

// The server's field paths of PATCH /api/admin/quizzes/{id}/ and the fields that show them; the form's field names
// are the request's, so most map to themselves.
const DETAIL_FIELDS: Record<string, string> = {
  ...pairFields('title'),
  ...Object.fromEntries(
    [
      'start_time',
      'end_time',
      'duration_minutes',
      'allowed_attempts',
      'difficulty',
      'is_paid_tier',
      'shuffle_questions',
      'shuffle_options',
      'challenge_days',
      'live.starts_at',
      'live.join_minutes',
    ].map((path) => [path, path]),
  ),
  // A message about the schedule as a whole goes beside its start.
  live: 'live.starts_at',
}

type Outcome = { ok: true } | { ok: false; lines: string[] } | null

/**
 * Section "Quiz Details": PATCH /api/admin/quizzes/{id}/ with every field of the form; with no quiz, the same form
 * makes a draft (POST /api/admin/quizzes/) and opens it, to fill its paper and publish it.
 */
export function QuizDetailsForm({ quiz }: { quiz: AdminQuiz | null }) {
  const { t } = useTranslation('admin')
  const navigate = useNavigate()
  const update = useUpdateQuizDetails(quiz?.id ?? 0)
  const create = useCreateQuiz()
  const saving = quiz ? update : create
  const [saved, setSaved] = useState({
    start: quiz?.start_time ?? null,
    end: quiz?.end_time ?? null,
    live: quiz?.live?.starts_at ?? null,
  })
  const form = useForm<DetailsValues>({
    // SPEC.md section 5: no client-side bounds on duration or attempts; the server refuses them by field.
    resolver: sendAsTyped(),
    defaultValues: quiz ? valuesFromQuiz(quiz) : newQuizValues(),
  })
  const [outcome, setOutcome] = useState<Outcome>(null)
  const messages = useAdminMessages()
  const headingId = useId()
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone
  const end = useWatch({ control: form.control, name: 'end_time' })
  const isLive = useWatch({ control: form.control, name: 'is_live' })

  const submit = (values: DetailsValues) => {
    const details: QuizDetailsPayload = {
      title: values.title,
      start_time: timeToSend(values.start_time, saved.start),
      end_time: timeToSend(values.end_time, saved.end),
      duration_minutes: toInteger(values.duration_minutes),
      allowed_attempts: toInteger(values.allowed_attempts),
      difficulty: values.difficulty,
      is_paid_tier: values.is_paid_tier,
      shuffle_questions: values.shuffle_questions,
      shuffle_options: values.shuffle_options,
      challenge_days: toInteger(values.challenge_days),
      live: values.is_live
        ? {
            starts_at: timeToSend(values.live.starts_at, saved.live),
            join_minutes: toInteger(values.live.join_minutes),
          }
        : null,
    }
    setOutcome(null)
    const onError = (error: unknown) => {
      setServerErrors(form.setError, error, DETAIL_FIELDS as ServerFields<DetailsValues>)
      setOutcome({ ok: false, lines: errorLines(fieldErrorsOf(error), Object.keys(DETAIL_FIELDS)) })
    }
    if (!quiz) {
      create.mutate(details, { onSuccess: (created) => navigate(paths.adminEditQuiz(created.id)), onError })
      return
    }
    update.mutate(details, {
      onSuccess: (updated) => {
        setSaved({ start: updated.start_time, end: updated.end_time, live: updated.live?.starts_at ?? null })
        form.reset(valuesFromQuiz(updated))
        setOutcome({ ok: true })
      },
      onError,
    })
  }

  return (
    <section className="card admin-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('details.heading')}</h2>
      <AdminForm
        form={form}
        messages={messages}
        refusal={outcome?.ok === false ? outcome : null}
        onSubmit={form.handleSubmit(submit)}
      >
        <div className="admin-grid">
          <BilingualFields labels={{ en: t('details.title_en'), ne: t('details.title_ne') }} name="title" />
          <TextField<DetailsValues>
            name="start_time"
            label={t('details.start_time')}
            type="datetime-local"
            hint={t('details.time_zone', { zone: timeZone })}
          />
          <TextField<DetailsValues>
            name="end_time"
            label={t('details.end_time')}
            type="datetime-local"
            hint={t('details.end_time_hint')}
          >
            {end && (
              <button
                type="button"
                className="link-button admin-clear"
                onClick={() => form.setValue('end_time', '', { shouldDirty: true })}
              >
                {t('details.clear_end_time')}
              </button>
            )}
          </TextField>
          <TextField<DetailsValues> name="duration_minutes" label={t('details.duration')} type="number" />
          <TextField<DetailsValues> name="allowed_attempts" label={t('details.attempts')} type="number" />
          <TextField<DetailsValues>
            name="challenge_days"
            label={t('details.challenge_days')}
            hint={t('details.challenge_days_hint')}
            type="number"
          />
          <SelectField<DetailsValues>
            name="difficulty"
            label={t('details.difficulty')}
            options={DIFFICULTIES.map((difficulty) => ({ value: difficulty, label: t(`difficulty.${difficulty}`) }))}
          />
          <CheckboxField<DetailsValues>
            name="is_paid_tier"
            label={t('details.paid_tier')}
            className="admin-grid__checkbox"
          />
          <CheckboxField<DetailsValues>
            name="shuffle_questions"
            label={t('details.shuffle_questions')}
            hint={t('details.shuffle_questions_hint')}
            className="admin-grid__checkbox"
          />
          <CheckboxField<DetailsValues>
            name="shuffle_options"
            label={t('details.shuffle_options')}
            hint={t('details.shuffle_options_hint')}
            className="admin-grid__checkbox"
          />
          <CheckboxField<DetailsValues>
            name="is_live"
            label={t('details.live')}
            hint={t('details.live_hint')}
            className="admin-grid__checkbox"
          />
          {isLive && (
            <>
              <TextField<DetailsValues>
                name="live.starts_at"
                label={t('details.live_starts_at')}
                type="datetime-local"
                hint={t('details.time_zone', { zone: timeZone })}
              />
              <TextField<DetailsValues>
                name="live.join_minutes"
                label={t('details.live_join_minutes')}
                hint={t('details.live_join_minutes_hint')}
                type="number"
              />
            </>
          )}
        </div>

        {outcome?.ok === true && <Alert kind="success">{t('details.saved')}</Alert>}
        {outcome?.ok === false && (
          <Alert kind="error">
            {quiz ? t('details.failed') : t('new.failed')}
            <ErrorList lines={outcome.lines} />
          </Alert>
        )}
        <div className="actions">
          <SubmitButton pending={saving.isPending} busy={t('common.saving')}>
            {quiz ? t('details.save') : t('new.create')}
          </SubmitButton>
        </div>
      </AdminForm>
    </section>
  )
}
