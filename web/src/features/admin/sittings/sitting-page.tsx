import { useQuery } from '@tanstack/react-query'
import { LangRuns } from '../../../components/ui/lang-runs'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { buttonClass } from '../../../components/ui/button'
import { Loading } from '../../../components/ui/loading'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatDateTime, formatNumber } from '../../../lib/format'
import { paths } from '../../../lib/paths'
import { RosterEditor } from './roster-editor'
import { ScanCounts } from './scan-counts'
import { SittingFrame } from './sitting-frame'
import { SittingSettings } from './sitting-settings'
import { DEFAULT_BOOKLET_PAGES, sittingQueries, usePageCounts, type Sitting } from './sittings.api'
import './sittings.i18n'

/** /admin/sittings/{id}: a sitting's details, its print, scan and review actions, the scan counts and its roster. */
export function Component() {
  const { t } = useTranslation('sittings')
  return (
    <SittingFrame back="quiz" heading={(name) => t('sitting.title', { name })}>
      {(sitting) => <SittingScreen key={sitting.id} sitting={sitting} />}
    </SittingFrame>
  )
}

function SittingScreen({ sitting }: { sitting: Sitting }) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const roster = useQuery(sittingQueries.roster(sitting.id))
  const scans = useQuery(sittingQueries.scans(sitting.id, null))
  const pages = usePageCounts(sitting.id)
  const n = (value: number) => formatNumber(value, language)
  return (
    <>
      <p className="admin-list__meta">
        <span>{formatDateTime(sitting.held_at, language)}</span>
        <span>{t('list.sets', { sets: sitting.sets.join(', ') })}</span>
        <span>
          <LangRuns text={t(`sitting.letters_${sitting.option_labels}`)} />
        </span>
        <span>{t('sitting.questions', { count: sitting.question_count, n: n(sitting.question_count) })}</span>
        {sitting.status === 'closed' && <span className="badge badge--unanswered">{t('list.closed')}</span>}
      </p>
      <nav className="sittings-actions" aria-label={t('sitting.actions')}>
        <Link className={buttonClass()} to={paths.adminSittingPaper(sitting.id)}>
          {t('sitting.print_papers')}
        </Link>
        <span className="sittings-actions__pair">
          <Link className={buttonClass()} to={paths.adminSittingSheets(sitting.id)}>
            {t('sitting.print_sheets')}
          </Link>
          <span className="field__hint">{t('sitting.print_at_100')}</span>
        </span>
        <BookletsLink sitting={sitting} />
        <Link className={buttonClass({ variant: 'primary' })} to={paths.adminSittingScan(sitting.id)}>
          {t('sitting.scan')}
        </Link>
        <Link className={buttonClass()} to={paths.adminSittingReview(sitting.id)}>
          {t('sitting.review', { n: n(sitting.scans.needs_review + (pages?.needsReview ?? 0)) })}
        </Link>
      </nav>
      <ScanCounts sitting={sitting} roster={roster.data} scans={scans.data} pages={pages} />
      <section className="card" aria-labelledby="sitting-roster">
        <h2 id="sitting-roster">{t('roster.title')}</h2>
        {roster.isError ? (
          <Alert kind="error">{t('roster.load_failed')}</Alert>
        ) : roster.data ? (
          <RosterEditor quizId={sitting.quiz_id} sittingId={sitting.id} sets={sitting.sets} roster={roster.data} />
        ) : (
          <Loading label={t('roster.loading')} />
        )}
      </section>
      <SittingSettings sitting={sitting} />
    </>
  )
}

/**
 * "Answer booklets" beside the answer sheets when the paper has written questions: the booklet's layout says so
 * (the server refuses it, 409, for a paper without any, or with more than a page's bubble row holds).
 */
function BookletsLink({ sitting }: { sitting: Sitting }) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const layout = useQuery(sittingQueries.bookletLayout(sitting.id))
  const pages = sitting.booklet_pages ?? DEFAULT_BOOKLET_PAGES
  const error = layout.error
  if (error instanceof ApiError && error.code === 'paper_not_printable')
    return <span className="field__hint sittings-actions__pair">{error.detail}</span>
  if (!layout.data) return null
  return (
    <span className="sittings-actions__pair">
      <Link className={buttonClass()} to={paths.adminSittingBooklets(sitting.id)}>
        {t('sitting.print_booklets')}
      </Link>
      <span className="field__hint">
        {t('sitting.booklet_pages', { count: pages, n: formatNumber(pages, language) })}
      </span>
    </span>
  )
}
