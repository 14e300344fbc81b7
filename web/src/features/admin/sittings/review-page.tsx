import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { Loading } from '../../../components/ui/loading'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatScore } from '../../../lib/format'
import { ScanCard } from './flagged-card'
import { PageCard } from './flagged-page-card'
import { usePageLine } from './scan-outcome'
import { RecordedTable } from './recorded-sheets'
import { SittingFrame } from './sitting-frame'
import { sittingQueries, type BookletPage, type Roster, type Sitting } from './sittings.api'
import './sittings.i18n'

/** /admin/sittings/{id}/review: the sheets a person must settle, then the recorded ones (open, correct, delete). */
export function Component() {
  const { t } = useTranslation('sittings')
  return (
    <SittingFrame back="sitting" heading={(name) => t('review.title', { name })}>
      {(sitting) => <Review sitting={sitting} />}
    </SittingFrame>
  )
}

function Review({ sitting }: { sitting: Sitting }) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const flagged = useQuery(sittingQueries.scans(sitting.id, 'needs_review'))
  const recorded = useQuery(sittingQueries.scans(sitting.id, 'recorded'))
  const roster = useQuery(sittingQueries.roster(sitting.id))
  const [notice, setNotice] = useState<string | null>(null)
  return (
    <>
      <div role="status" aria-live="polite">
        {notice && <Alert kind="success">{notice}</Alert>}
      </div>
      <section aria-labelledby="review-flagged">
        <h2 id="review-flagged">{t('review.flagged')}</h2>
        {flagged.isError ? (
          <Alert kind="error">{t('review.load_failed')}</Alert>
        ) : !flagged.data ? (
          <Loading label={t('review.loading')} />
        ) : flagged.data.results.length === 0 ? (
          <p className="card admin-empty">{t('review.none_flagged')}</p>
        ) : (
          flagged.data.results.map((scan) => (
            <ScanCard
              key={scan.id}
              sitting={sitting}
              scan={scan}
              roster={roster.data}
              onSettled={(settled) =>
                setNotice(
                  settled.status === 'recorded'
                    ? t('review.settled', {
                        name: settled.learner?.full_name || settled.learner?.username || '',
                        score: formatScore(settled.score ?? 0, language),
                      })
                    : t('review.still_flagged'),
                )
              }
            />
          ))
        )}
      </section>
      <FlaggedPages sitting={sitting} roster={roster.data} onNotice={setNotice} />
      <section aria-labelledby="review-recorded">
        <h2 id="review-recorded">{t('review.recorded')}</h2>
        {recorded.isError ? (
          <Alert kind="error">{t('review.load_failed')}</Alert>
        ) : !recorded.data ? (
          <Loading label={t('review.loading')} />
        ) : recorded.data.results.length === 0 ? (
          <p className="card admin-empty">{t('review.none_recorded')}</p>
        ) : (
          <RecordedTable sitting={sitting} scans={recorded.data.results} onNotice={setNotice} />
        )}
      </section>
    </>
  )
}

/** The written-answer booklet pages a person must settle; nothing for a sitting without any flagged. */
function FlaggedPages({
  sitting,
  roster,
  onNotice,
}: {
  sitting: Sitting
  roster?: Roster
  onNotice: (notice: string) => void
}) {
  const { t } = useTranslation('sittings')
  const line = usePageLine()
  const pages = useQuery(sittingQueries.pages(sitting.id, 'needs_review'))
  const settled = (page: BookletPage) =>
    onNotice(
      page.status === 'recorded'
        ? t('review.page_settled', {
            name: page.learner?.full_name || page.learner?.username || '',
            line: line(page),
          })
        : page.status === 'discarded'
          ? t('review.page_discarded')
          : t('review.page_still_flagged'),
    )
  if (pages.isError)
    return (
      <section aria-labelledby="review-pages">
        <h2 id="review-pages">{t('review.flagged_pages')}</h2>
        <Alert kind="error">{t('review.pages_load_failed')}</Alert>
      </section>
    )
  if (!pages.data?.results.length) return null
  return (
    <section aria-labelledby="review-pages">
      <h2 id="review-pages">{t('review.flagged_pages')}</h2>
      {pages.data.results.map((page) => (
        <PageCard key={page.id} sitting={sitting} page={page} roster={roster} onSettled={settled} />
      ))}
    </section>
  )
}
