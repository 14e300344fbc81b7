import type { NationalMockCreate } from '@quiz/contracts'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { MockSchedule } from '../national/mock-schedule'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/form/field'
import { useBilingual, useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber, formatScore } from '../../../lib/format'
import { localInputToIso } from '../datetime'
import { useAdminMessages } from '../forms'
import { fieldError } from './field-errors'
import { platformQueries, useScheduleNationalMock, type PlatformNationalMock } from './platform.api'
import { readQuestionIds } from './question-ids'
import '../../../i18n/platform.i18n'
import './platform.css'

// WEB.md "Institutes": the platform admins' national mocks: schedule one (its paper names platform bank questions),
// see the institutes taking part, and the national board over all of them.

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
  const [showBoard, setShowBoard] = useState(false)
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
      <Button small aria-expanded={showBoard} onClick={() => setShowBoard(!showBoard)}>
        {showBoard ? t('platform.national.board_hide') : t('platform.national.board_show')}
      </Button>
      {showBoard && (
        <section aria-label={t('platform.national.board_named', { title: pick(mock.title) })}>
          <h3>{t('platform.national.board')}</h3>
          <NationalBoard id={mock.id} />
        </section>
      )}
    </li>
  )
}

/** Every institute's learners ranked together, as learners see it after the end (no one's own place here). */
function NationalBoard({ id }: { id: number }) {
  const { t } = useTranslation('platform')
  const language = useLanguage()
  const board = useQuery(platformQueries.board(id))
  const n = (value: number) => formatNumber(value, language)
  if (board.isPending) return <p role="status">{t('platform.national.board_loading')}</p>
  if (board.isError) return <p role="alert">{t('platform.national.board_failed')}</p>
  const { status, participants, top } = board.data
  const ranked = status === 'provisional' || status === 'final'
  return (
    <>
      <p>
        {t(`platform.national.board_status.${status}`)}{' '}
        <span className="muted">
          {t('platform.national.board_participants', { count: participants, n: n(participants) })}
        </span>
      </p>
      {ranked &&
        (top.length === 0 ? (
          <p>{t('platform.national.board_empty')}</p>
        ) : (
          <div className="admin-table-wrap">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('platform.national.board_rank')}</th>
                  <th scope="col">{t('platform.national.board_name')}</th>
                  <th scope="col">{t('national.score')}</th>
                </tr>
              </thead>
              <tbody>
                {top.map((entry) => (
                  <tr key={`${entry.rank}-${entry.name}`}>
                    <td className="admin-num">{n(entry.rank)}</td>
                    <td>{entry.name}</td>
                    <td className="admin-num">{formatScore(entry.score, language)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
    </>
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
