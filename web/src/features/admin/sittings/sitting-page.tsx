import { useQuery } from '@tanstack/react-query'
import { LangRuns } from '../../../components/ui/lang-runs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { Button, buttonClass } from '../../../components/ui/button'
import { Loading } from '../../../components/ui/loading'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatDateTime, formatNumber } from '../../../lib/format'
import { paths } from '../../../lib/paths'
import { ConfirmDeleteDialog } from '../confirm-dialog'
import { RosterEditor } from './roster-editor'
import { SittingForm } from './sitting-form'
import { SittingFrame } from './sitting-frame'
import { useSittingName } from './sitting-title'
import {
  DEFAULT_BOOKLET_PAGES,
  sittingQueries,
  useDeleteSitting,
  usePageCounts,
  useUpdateSitting,
  type Roster,
  type ScanList,
  type Sitting,
} from './sittings.api'
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

/** Roll numbers of the roster with a scan (recorded or waiting for review): the rest are missing. */
export function missingLearners(roster: Roster, scans: ScanList) {
  const scanned = new Set(scans.results.map((scan) => scan.roll_number))
  return roster.roster.filter((entry) => !scanned.has(entry.roll_number))
}

function ScanCounts({
  sitting,
  roster,
  scans,
  pages,
}: {
  sitting: Sitting
  roster?: Roster
  scans?: ScanList
  pages: ReturnType<typeof usePageCounts>
}) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language)
  const missing = roster && scans ? missingLearners(roster, scans) : null
  return (
    <section className="card" aria-labelledby="sitting-scans">
      <h2 id="sitting-scans">{t('counts.title')}</h2>
      <p>
        {t('counts.recorded', { recorded: n(sitting.scans.recorded), roster: n(sitting.roster_count) })}{' '}
        {sitting.scans.needs_review > 0 && t('counts.needs_review', { n: n(sitting.scans.needs_review) })}
      </p>
      {pages && (
        <p>
          {t('counts.pages', { count: pages.recorded, n: n(pages.recorded) })}{' '}
          {pages.needsReview > 0 && t('counts.pages_review', { count: pages.needsReview, n: n(pages.needsReview) })}
        </p>
      )}
      {missing && missing.length > 0 && (
        <details>
          <summary>{t('counts.missing', { count: missing.length, n: n(missing.length) })}</summary>
          <ul className="sittings-missing">
            {missing.map((entry) => (
              <li key={entry.roll_number}>
                {t('counts.missing_line', {
                  roll: n(entry.roll_number),
                  name: entry.user.full_name || entry.user.username,
                })}
              </li>
            ))}
          </ul>
        </details>
      )}
      {missing && missing.length === 0 && roster && roster.roster.length > 0 && <p>{t('counts.none_missing')}</p>}
    </section>
  )
}

/** Edit the date and title, close or reopen, delete (refused once a sheet is recorded). */
function SittingSettings({ sitting }: { sitting: Sitting }) {
  const { t } = useTranslation('sittings')
  const name = useSittingName()
  const navigate = useNavigate()
  const update = useUpdateSitting(sitting.quiz_id, sitting.id)
  const remove = useDeleteSitting(sitting.quiz_id, sitting.id)
  const [editing, setEditing] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const [notice, setNotice] = useState<string | null>(null)
  const refused =
    remove.error instanceof ApiError && remove.error.status === 409
      ? t('settings.delete_refused')
      : remove.isError
        ? t('settings.delete_failed')
        : null
  return (
    <section className="card" aria-labelledby="sitting-settings">
      <h2 id="sitting-settings">{t('settings.title')}</h2>
      {notice && <Alert kind="success">{notice}</Alert>}
      {refused && <Alert kind="error">{refused}</Alert>}
      {update.isError && !editing && <Alert kind="error">{t('settings.save_failed')}</Alert>}
      {editing ? (
        <SittingForm
          sitting={sitting}
          pending={update.isPending}
          submitLabel={t('settings.save')}
          onCancel={() => setEditing(false)}
          save={(fields, onError) =>
            update.mutate(
              {
                held_at: fields.held_at,
                ...(fields.title ? { title: fields.title } : {}),
                ...(fields.booklet_pages ? { booklet_pages: fields.booklet_pages } : {}),
              },
              {
                onSuccess: () => {
                  setEditing(false)
                  setNotice(t('settings.saved'))
                },
                onError,
              },
            )
          }
        />
      ) : (
        <div className="actions">
          <Button
            onClick={() => {
              setNotice(null)
              setEditing(true)
            }}
          >
            {t('settings.edit')}
          </Button>
          <Button
            disabled={update.isPending}
            onClick={() =>
              update.mutate(
                { status: sitting.status === 'open' ? 'closed' : 'open' },
                { onSuccess: (changed) => setNotice(t(`settings.now_${changed.status}`)) },
              )
            }
          >
            {sitting.status === 'open' ? t('settings.close') : t('settings.reopen')}
          </Button>
          <Button variant="danger" onClick={() => setConfirming(true)}>
            {t('settings.delete')}
          </Button>
        </div>
      )}
      <ConfirmDeleteDialog
        open={confirming}
        title={t('settings.delete_title')}
        message={t('settings.delete_message')}
        subject={name(sitting)}
        pending={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          void remove.mutateAsync().then(
            () => navigate(paths.adminQuizSittings(sitting.quiz_id)),
            () => setConfirming(false),
          )
        }
      />
    </section>
  )
}
