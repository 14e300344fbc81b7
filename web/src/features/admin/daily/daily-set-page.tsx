import { dailyMessages, type DailyDay, type DailySettings, type DailySettingsBody } from '@quiz/contracts'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/form/field'
import { CheckboxField, TextField } from '../../../components/ui/form/fields'
import { fieldErrorsOf, setServerErrors, type ServerFields } from '../../../components/ui/form/server-errors'
import { Loading } from '../../../components/ui/loading'
import { formatNumber, formatScore } from '../../../lib/format'
import { addDays, formatDailyDate, nepalToday } from '../../../lib/daily-date'
import { dailyDaysQuery, dailySettingsQuery, useFixDailyDay, useSaveDailySettings } from './daily-set.api'
import { AdminNav } from '../admin-nav'
import { AdminForm, sendAsTyped, useAdminMessages } from '../forms'
import { SubmitButton, TableHead, TableScroll } from '../ui'
import '../admin.css'
import '../../../components/daily/daily.css'
import '../../../i18n/daily.i18n'

// WEB.md "The daily set", for admins: the settings (topics and tags, count, minutes, marks, publish time), the next
// 7 days with their questions, each changeable before it is published, and the past days' attempts and mean.

/** How far back "Past days" reads (the server lists at most 92 days at a time). */
const PAST_DAYS = 30
const NEXT_DAYS = 7

interface SettingsValues {
  enabled: boolean
  /** One a line. */
  topics: string
  tags: string
  count: string
  duration_minutes: string
  marks_correct: string
  marks_wrong: string
  publish_at: string
}

const SETTINGS_FIELDS: ServerFields<SettingsValues> = {
  enabled: 'enabled',
  topics: 'topics',
  tags: 'tags',
  count: 'count',
  duration_minutes: 'duration_minutes',
  marks_correct: 'marks_correct',
  marks_wrong: 'marks_wrong',
  publish_at: 'publish_at',
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)

// A field left empty is sent as null: the server says which field it wants, at that field.
const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text))

function toBody(values: SettingsValues) {
  return {
    enabled: values.enabled,
    topics: lines(values.topics),
    tags: lines(values.tags),
    count: numberOrNull(values.count),
    duration_minutes: numberOrNull(values.duration_minutes),
    marks_correct: numberOrNull(values.marks_correct),
    marks_wrong: numberOrNull(values.marks_wrong),
    publish_at: values.publish_at,
  } as unknown as DailySettingsBody
}

/** The contracts' daily texts in the admin's language; the admin's own mapping for the rest. */
function useDailyMessages() {
  const { t } = useTranslation('daily')
  const admin = useAdminMessages()
  const known: Record<string, string> = {
    [dailyMessages.dayPublished]: t('admin.messages.day_published'),
    [dailyMessages.dayOver]: t('admin.messages.day_over'),
    [dailyMessages.questionCount]: t('admin.messages.question_count'),
    [dailyMessages.unknownQuestion]: t('admin.messages.unknown_question'),
    [dailyMessages.repeated]: t('admin.messages.repeated'),
    [dailyMessages.count]: t('admin.messages.count'),
    [dailyMessages.minutes]: t('admin.messages.minutes'),
    [dailyMessages.publishAt]: t('admin.messages.publish_at'),
  }
  return (text: string) => known[text] ?? admin(text)
}

export function Component() {
  const { t } = useTranslation('daily')
  const settings = useQuery(dailySettingsQuery())
  const [saved, setSaved] = useState(false)
  const today = nepalToday()
  return (
    <div className="admin daily-admin">
      <AdminNav />
      <h1>{t('admin.title')}</h1>
      {saved && <Alert kind="success">{t('admin.saved')}</Alert>}
      {settings.isPending ? (
        <Loading label={t('admin.loading')} />
      ) : settings.isError ? (
        <Alert kind="error">{t('admin.load_failed')}</Alert>
      ) : (
        <SettingsForm
          key={JSON.stringify(settings.data)}
          stored={settings.data}
          onSaving={() => setSaved(false)}
          onSaved={() => setSaved(true)}
        />
      )}
      {settings.data && <NextDays today={today} count={settings.data.count} />}
      <PastDays today={today} />
    </div>
  )
}

function SettingsForm({
  stored,
  onSaving,
  onSaved,
}: {
  stored: DailySettings
  onSaving: () => void
  onSaved: () => void
}) {
  const { t } = useTranslation('daily')
  const messages = useDailyMessages()
  const [refusal, setRefusal] = useState<object | null>(null)
  const form = useForm<SettingsValues>({
    resolver: sendAsTyped(),
    defaultValues: {
      enabled: stored.enabled,
      topics: stored.topics.join('\n'),
      tags: stored.tags.join('\n'),
      count: String(stored.count),
      duration_minutes: String(stored.duration_minutes),
      marks_correct: String(stored.marks_correct),
      marks_wrong: String(stored.marks_wrong),
      publish_at: stored.publish_at,
    },
  })
  const save = useSaveDailySettings({
    onSaved,
    onRefused: (error) => {
      setServerErrors(form.setError, error, SETTINGS_FIELDS)
      setRefusal({})
    },
  })
  return (
    <section className="card" aria-labelledby="daily-settings-title">
      <h2 id="daily-settings-title">{t('admin.settings_title')}</h2>
      <AdminForm
        form={form}
        messages={messages}
        refusal={refusal}
        className="stack"
        onSubmit={form.handleSubmit((values) => {
          onSaving()
          save.mutate(toBody(values))
        })}
      >
        {save.isError && <Alert kind="error">{t('admin.save_failed')}</Alert>}
        <CheckboxField<SettingsValues> name="enabled" label={t('admin.enabled')} hint={t('admin.enabled_hint')} />
        <TextField<SettingsValues>
          name="topics"
          label={t('admin.topics')}
          hint={t('admin.words_hint')}
          multiline
          rows={3}
        />
        <TextField<SettingsValues>
          name="tags"
          label={t('admin.tags')}
          hint={t('admin.words_hint')}
          multiline
          rows={3}
        />
        <TextField<SettingsValues> name="count" type="number" label={t('admin.count')} />
        <TextField<SettingsValues> name="duration_minutes" type="number" label={t('admin.minutes')} />
        <TextField<SettingsValues> name="marks_correct" label={t('admin.marks_correct')} />
        <TextField<SettingsValues> name="marks_wrong" label={t('admin.marks_wrong')} />
        <TextField<SettingsValues> name="publish_at" type="time" label={t('admin.publish_at')} />
        <div className="actions">
          <SubmitButton pending={save.isPending}>{t('admin.save')}</SubmitButton>
        </div>
      </AdminForm>
    </section>
  )
}

function NextDays({ today, count }: { today: string; count: number }) {
  const { t } = useTranslation('daily')
  const days = useQuery(dailyDaysQuery(today, addDays(today, NEXT_DAYS - 1)))
  return (
    <section className="card" aria-labelledby="daily-next-title">
      <h2 id="daily-next-title">{t('admin.next_title')}</h2>
      {days.isPending ? (
        <Loading label={t('admin.loading')} />
      ) : days.isError ? (
        <Alert kind="error">{t('admin.days_failed')}</Alert>
      ) : (
        <ol className="daily-days">
          {days.data.map((day) => (
            <NextDay key={day.date.ad} day={day} count={count} />
          ))}
        </ol>
      )}
    </section>
  )
}

function NextDay({ day, count }: { day: DailyDay; count: number }) {
  const { t, i18n } = useTranslation('daily')
  const [editing, setEditing] = useState(false)
  const label = formatDailyDate(day.date, i18n.language, t)
  const state = day.published ? t('admin.published') : day.fixed ? t('admin.fixed') : t('admin.drawn_later')
  return (
    <li className="daily-day">
      <div className="daily-day__head">
        <h3 className="daily-day__date">
          <time dateTime={day.date.ad}>{label}</time>
        </h3>
        <span className="badge">{state}</span>
      </div>
      {day.questions.length > 0 && (
        <ol className="daily-day__questions">
          {day.questions.map((question) => (
            <li key={question.id}>
              <span className="admin-code">#{question.id}</span> {question.text}
              {question.topic && <span className="muted"> · {question.topic}</span>}
            </li>
          ))}
        </ol>
      )}
      {!day.published &&
        (editing ? (
          <DayForm day={day} count={count} label={label} onDone={() => setEditing(false)} />
        ) : (
          <div>
            <Button type="button" onClick={() => setEditing(true)}>
              {t('admin.change')}
              <span className="visually-hidden"> ({label})</span>
            </Button>
          </div>
        ))}
    </li>
  )
}

/** The day's questions by their bank numbers; the server checks them (exactly `count` live questions). */
function DayForm({ day, count, label, onDone }: { day: DailyDay; count: number; label: string; onDone: () => void }) {
  const { t, i18n } = useTranslation('daily')
  const messages = useDailyMessages()
  const [text, setText] = useState(day.questions.map((question) => question.id).join(', '))
  const [problem, setProblem] = useState<string | null>(null)
  const [sentence, setSentence] = useState<string | null>(null)
  const fix = useFixDailyDay()

  function save() {
    setProblem(null)
    setSentence(null)
    const parts = text.split(/[\s,]+/).filter(Boolean)
    const ids = parts.map(Number)
    if (parts.length === 0 || ids.some((id) => !Number.isInteger(id) || id <= 0)) {
      setProblem(t('admin.bad_ids'))
      return
    }
    fix.mutate(
      { day: day.date.ad, questionIds: ids },
      {
        onSuccess: onDone,
        onError: (error) => {
          // 409 day_published: the day went out meanwhile; said as a sentence, the form stays to read.
          if (error instanceof ApiError && error.code === 'day_published') {
            setSentence(t('admin.messages.day_published'))
            return
          }
          const errors = fieldErrorsOf(error)
          const unknown = Object.keys(errors).find((path) => /^question_ids\.\d+$/.test(path))
          if (unknown) {
            const index = Number(unknown.split('.')[1])
            setProblem(t('admin.messages.unknown_question_id', { id: ids[index] ?? '' }))
            return
          }
          const first = errors.question_ids?.[0] ?? errors.date?.[0]
          if (first) setProblem(messages(first))
          else setSentence(error instanceof ApiError ? messages(error.detail) : t('admin.save_failed'))
        },
      },
    )
  }

  return (
    <div className="daily-day__form stack" role="group" aria-label={t('admin.change_label', { date: label })}>
      {sentence && <Alert kind="error">{sentence}</Alert>}
      <Field
        label={t('admin.question_ids')}
        hint={t('admin.question_ids_hint', { n: formatNumber(count, i18n.language) })}
        error={problem}
      >
        {(control) => (
          <input {...control} value={text} inputMode="numeric" onChange={(event) => setText(event.target.value)} />
        )}
      </Field>
      <div className="actions">
        <Button type="button" variant="primary" onClick={save} disabled={fix.isPending}>
          {t('admin.save_day')}
        </Button>
        <Button type="button" onClick={onDone}>
          {t('admin.cancel')}
        </Button>
      </div>
    </div>
  )
}

function PastDays({ today }: { today: string }) {
  const { t, i18n } = useTranslation('daily')
  const language = i18n.language
  const days = useQuery(dailyDaysQuery(addDays(today, -PAST_DAYS), addDays(today, -1)))
  const held = days.data?.filter((day) => day.published).reverse()
  return (
    <section className="card" aria-labelledby="daily-past-title">
      <h2 id="daily-past-title">{t('admin.past_title')}</h2>
      {days.isPending ? (
        <Loading label={t('admin.loading')} />
      ) : days.isError ? (
        <Alert kind="error">{t('admin.days_failed')}</Alert>
      ) : !held || held.length === 0 ? (
        <p className="muted">{t('admin.past_empty')}</p>
      ) : (
        <TableScroll label={t('admin.past_title')}>
          <table className="admin-table">
            <TableHead
              columns={[
                { label: t('admin.col_date') },
                { label: t('admin.col_attempts'), numeric: true },
                { label: t('admin.col_mean'), numeric: true },
              ]}
            />
            <tbody>
              {held.map((day) => (
                <tr key={day.date.ad}>
                  <th scope="row">
                    <time dateTime={day.date.ad}>{formatDailyDate(day.date, language, t)}</time>
                  </th>
                  <td className="admin-num">{formatNumber(day.attempts, language)}</td>
                  <td className="admin-num">
                    {day.mean === null ? t('admin.no_mean') : formatScore(day.mean, language)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  )
}
