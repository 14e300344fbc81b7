import type { NationalMockCreate } from '@quiz/contracts'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { MockSchedule } from '../national/mock-schedule'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/form/field'
import { useBilingual } from '../../../i18n/use-bilingual'
import { localInputToIso } from '../datetime'
import { useAdminMessages } from '../forms'
import { fieldError } from './field-errors'
import { platformQueries, useScheduleNationalMock, type PlatformNationalMock } from './platform.api'
import { readQuestionIds } from './question-ids'
import '../../../i18n/platform.i18n'
import './platform.css'

// WEB.md "Institutes": the platform admins' national mocks: schedule one (its paper names platform bank questions),
// and see the institutes taking part. The national board is read on an institute's address (API.md).

export function Component() {
  const { t } = useTranslation('platform')
  const mocks = useQuery(platformQueries.national())
  return (
    <>
      <h1>{t('platform.national.title')}</h1>
      {mocks.isPending && <p role="status">{t('platform.national.loading')}</p>}
      {mocks.isError && <Alert kind="error">{t('platform.national.load_failed')}</Alert>}
      {mocks.data &&
        (mocks.data.items.length === 0 ? (
          <p>{t('platform.national.empty')}</p>
        ) : (
          <ul className="national-list platform-national">
            {mocks.data.items.map((mock) => (
              <PlatformMockCard key={mock.id} mock={mock} />
            ))}
          </ul>
        ))}
      <ScheduleForm />
    </>
  )
}

function PlatformMockCard({ mock }: { mock: PlatformNationalMock }) {
  const { t } = useTranslation('platform')
  const pick = useBilingual()
  const headingId = `platform-national-${mock.id}`
  return (
    <li className="national-card" aria-labelledby={headingId}>
      <h2 id={headingId}>{pick(mock.title)}</h2>
      <MockSchedule mock={mock} />
      <h3>{t('platform.national.institutes')}</h3>
      {mock.institutes.length === 0 ? (
        <p>{t('platform.national.none_taking_part')}</p>
      ) : (
        <ul>
          {mock.institutes.map((institute) => (
            <li key={institute.id}>
              {institute.name} <span className="muted">({institute.slug})</span>
            </li>
          ))}
        </ul>
      )}
    </li>
  )
}

/** Schedules a national mock: title, duration, start and joining window, and the platform questions in order. */
function ScheduleForm() {
  const { t } = useTranslation('platform')
  const messages = useAdminMessages()
  const schedule = useScheduleNationalMock()
  const [titleEn, setTitleEn] = useState('')
  const [titleNe, setTitleNe] = useState('')
  const [duration, setDuration] = useState('60')
  const [startsAt, setStartsAt] = useState('')
  const [joinMinutes, setJoinMinutes] = useState('15')
  const [questions, setQuestions] = useState('')
  const [questionsInvalid, setQuestionsInvalid] = useState(false)
  const [created, setCreated] = useState<string | null>(null)
  const pick = useBilingual()
  const message = (path: string) => {
    const text = fieldError(schedule.error, path)
    return text ? messages(text) : null
  }
  return (
    <section className="stack platform-create" aria-labelledby="platform-schedule">
      <h2 id="platform-schedule">{t('platform.national.schedule')}</h2>
      <div aria-live="polite">
        {created && <Alert kind="success">{t('platform.national.created', { title: created })}</Alert>}
        {schedule.isError && <Alert kind="error">{t('platform.national.create_failed')}</Alert>}
      </div>
      <form
        className="stack"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          setCreated(null)
          const ids = readQuestionIds(questions)
          setQuestionsInvalid(ids === null)
          if (!ids) return
          const body: NationalMockCreate = {
            title: { en: titleEn, ne: titleNe },
            duration_minutes: Number(duration),
            // An empty or malformed start is sent as typed: the server names the field.
            live: { starts_at: localInputToIso(startsAt) ?? startsAt, join_minutes: Number(joinMinutes) },
            sections: [{ items: ids.map((question_id) => ({ question_id })) }],
          }
          schedule.mutate(body, {
            onSuccess: (mock) => {
              setCreated(pick(mock.title))
              setTitleEn('')
              setTitleNe('')
              setQuestions('')
            },
          })
        }}
      >
        <Field label={t('platform.national.title_en')} error={message('title.en') ?? message('title')} required>
          {(control) => <input {...control} lang="en" value={titleEn} onChange={(e) => setTitleEn(e.target.value)} />}
        </Field>
        <Field label={t('platform.national.title_ne')} error={message('title.ne')}>
          {(control) => <input {...control} lang="ne" value={titleNe} onChange={(e) => setTitleNe(e.target.value)} />}
        </Field>
        <Field label={t('platform.national.duration')} error={message('duration_minutes')} required>
          {(control) => (
            <input {...control} inputMode="numeric" value={duration} onChange={(e) => setDuration(e.target.value)} />
          )}
        </Field>
        <Field label={t('platform.national.starts_at')} error={message('live.starts_at')} required>
          {(control) => (
            <input {...control} type="datetime-local" value={startsAt} onChange={(e) => setStartsAt(e.target.value)} />
          )}
        </Field>
        <Field label={t('platform.national.join_minutes')} error={message('live.join_minutes')} required>
          {(control) => (
            <input
              {...control}
              inputMode="numeric"
              value={joinMinutes}
              onChange={(e) => setJoinMinutes(e.target.value)}
            />
          )}
        </Field>
        <Field
          label={t('platform.national.questions_field')}
          hint={t('platform.national.questions_hint')}
          error={questionsInvalid ? t('platform.national.questions_invalid') : message('sections')}
          required
        >
          {(control) => (
            <textarea {...control} rows={2} value={questions} onChange={(e) => setQuestions(e.target.value)} />
          )}
        </Field>
        <div className="actions">
          <Button type="submit" variant="primary" disabled={schedule.isPending}>
            {schedule.isPending ? t('platform.national.saving') : t('platform.national.save')}
          </Button>
        </div>
      </form>
    </section>
  )
}
