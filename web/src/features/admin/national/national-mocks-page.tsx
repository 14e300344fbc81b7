import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { MockSchedule } from './mock-schedule'
import { Link } from 'react-router'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { useBilingual, useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber, formatScore } from '../../../lib/format'
import { paths } from '../../../lib/paths'
import { AdminNav } from '../admin-nav'
import { nationalQueries, useTakePart, type AdminNationalMock } from './national.api'
import { nationalErrorKey } from './national-error'
import '../admin.css'
import '../../../i18n/platform.i18n'
import './national.css'

// WEB.md "Institutes": the national mocks the platform offers, "Take part" (and withdraw before the start), and after
// the common end the institute's learners with their national and institute ranks.

type Outcome = { kind: 'joined' | 'left'; title: string } | { kind: 'error'; error: unknown } | null

export function Component() {
  const { t } = useTranslation('platform')
  const mocks = useQuery(nationalQueries.list())
  const [outcome, setOutcome] = useState<Outcome>(null)
  return (
    <div className="admin">
      <AdminNav />
      <h1>{t('national.title')}</h1>
      <p>{t('national.intro')}</p>
      <div aria-live="polite">
        {outcome?.kind === 'joined' && <Alert kind="success">{t('national.joined', { title: outcome.title })}</Alert>}
        {outcome?.kind === 'left' && <Alert kind="success">{t('national.left', { title: outcome.title })}</Alert>}
        {outcome?.kind === 'error' && <Alert kind="error">{t(nationalErrorKey(outcome.error))}</Alert>}
      </div>
      {mocks.isPending && <p role="status">{t('national.loading')}</p>}
      {mocks.isError && <Alert kind="error">{t('national.load_failed')}</Alert>}
      {mocks.data &&
        (mocks.data.items.length === 0 ? (
          <p>{t('national.empty')}</p>
        ) : (
          <ul className="national-list">
            {mocks.data.items.map((mock) => (
              <NationalMockCard key={mock.id} mock={mock} onOutcome={setOutcome} />
            ))}
          </ul>
        ))}
    </div>
  )
}

function NationalMockCard({ mock, onOutcome }: { mock: AdminNationalMock; onOutcome: (outcome: Outcome) => void }) {
  const { t } = useTranslation('platform')
  const pick = useBilingual()
  const takePart = useTakePart()
  const title = pick(mock.title)
  // When the page was drawn: a mock that starts or ends while it is open shows so after the next load.
  const [now] = useState(() => Date.now())
  const started = now >= Date.parse(mock.live.starts_at)
  const ended = now >= Date.parse(mock.live.ends_at)
  const headingId = `national-${mock.id}`
  const act = (join: boolean) => {
    onOutcome(null)
    takePart.mutate(
      { id: mock.id, join },
      {
        onSuccess: () => onOutcome({ kind: join ? 'joined' : 'left', title }),
        onError: (error) => onOutcome({ kind: 'error', error }),
      },
    )
  }
  return (
    <li className="national-card" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <MockSchedule mock={mock} />
      <p>
        <span className={mock.taking_part ? 'national-badge national-badge--on' : 'national-badge'}>
          {mock.taking_part ? t('national.taking_part') : t('national.not_taking_part')}
        </span>
      </p>
      <span className="actions">
        {!started &&
          (mock.taking_part ? (
            <Button
              small
              disabled={takePart.isPending}
              aria-label={t('national.withdraw_named', { title })}
              onClick={() => act(false)}
            >
              {t('national.withdraw')}
            </Button>
          ) : (
            <Button
              small
              variant="primary"
              disabled={takePart.isPending}
              aria-label={t('national.take_part_named', { title })}
              onClick={() => act(true)}
            >
              {t('national.take_part')}
            </Button>
          ))}
        {mock.taking_part && mock.quiz_id !== null && (
          <Link to={paths.adminEditQuiz(mock.quiz_id)}>{t('national.open_quiz')}</Link>
        )}
      </span>
      {mock.taking_part && mock.quiz_id !== null && (
        <section aria-label={t('national.results_named', { title })}>
          <h3>{t('national.results')}</h3>
          {ended ? <InstituteBoard quizId={mock.quiz_id} /> : <p className="muted">{t('national.results_wait')}</p>}
        </section>
      )}
    </li>
  )
}

/** The institute's learners of its copy, ranked within the institute and nationally (decision 102). */
function InstituteBoard({ quizId }: { quizId: number }) {
  const { t } = useTranslation('platform')
  const language = useLanguage()
  const board = useQuery(nationalQueries.board(quizId))
  const n = (value: number) => formatNumber(value, language)
  if (board.isPending) return <p role="status">{t('national.loading')}</p>
  if (board.isError) return <p role="alert">{t('national.load_failed')}</p>
  if (board.data.top.length === 0) return <p>{t('national.results_empty')}</p>
  return (
    <>
      <p className="muted">{t('national.participants', { count: board.data.participants })}</p>
      <div className="admin-table-wrap">
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">{t('national.rank')}</th>
              <th scope="col">{t('national.name')}</th>
              <th scope="col">{t('national.score')}</th>
              <th scope="col">{t('national.national_rank')}</th>
            </tr>
          </thead>
          <tbody>
            {board.data.top.map((entry) => (
              <tr key={`${entry.rank}-${entry.name}`}>
                <td className="admin-num">{n(entry.rank)}</td>
                <td>{entry.name}</td>
                <td className="admin-num">{formatScore(entry.score, language)}</td>
                <td className="admin-num">{entry.national_rank == null ? '—' : n(entry.national_rank)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  )
}
