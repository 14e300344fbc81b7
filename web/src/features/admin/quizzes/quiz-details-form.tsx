import { DIFFICULTIES } from '@quiz/contracts/rules/difficulty'
import { useId, useState } from 'react'
import { useForm, useFormContext, useWatch } from 'react-hook-form'
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
import { useCreateQuiz, useUpdateQuizDetails, type AdminQuiz } from './quizzes.api'
import { sendAsTyped, useAdminMessages, AdminForm, BilingualFields } from '../forms'
import {
  DETAIL_FIELDS,
  newQuizValues,
  payloadOf,
  valuesFromQuiz,
  type DetailsValues,
  type SavedTimes,
} from './quiz-details-values'
import { SubmitButton } from '../ui'
import '../admin.i18n'

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
  const [saved, setSaved] = useState<SavedTimes>({
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

  const submit = (values: DetailsValues) => {
    const details = payloadOf(values, saved)
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
          <TextField<DetailsValues>
            name="upload_grace_minutes"
            label={t('details.upload_grace')}
            hint={t('details.upload_grace_hint')}
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
          <LiveScheduleFields timeZone={timeZone} />
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

/** "Live mock" and, once it is ticked, the live schedule: its start (in the browser's time zone) and join window. */
function LiveScheduleFields({ timeZone }: { timeZone: string }) {
  const { t } = useTranslation('admin')
  const { control } = useFormContext<DetailsValues>()
  const isLive = useWatch({ control, name: 'is_live' })
  return (
    <>
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
    </>
  )
}
