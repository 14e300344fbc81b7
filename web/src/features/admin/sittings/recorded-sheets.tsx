import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber, formatScore } from '../../../lib/format'
import { ConfirmDeleteDialog } from '../confirm-dialog'
import { TableHead, TableScroll } from '../ui'
import { ScanPhoto } from './review-photo'
import { useRowLetters } from './review-rows'
import { useDeleteScan, useSettleScan, type Scan, type Sitting } from './sittings.api'
import './sittings.i18n'

/** The recorded sheets: a table of them, one opened below it. */
export function RecordedTable({
  sitting,
  scans,
  onNotice,
}: {
  sitting: Sitting
  scans: Scan[]
  onNotice: (text: string) => void
}) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language)
  const [open, setOpen] = useState<number | null>(null)
  const opened = scans.find((scan) => scan.id === open)
  return (
    <>
      <TableScroll label={t('review.recorded')}>
        <table className="admin-table review-recorded">
          <TableHead
            columns={[
              { label: t('review.roll'), numeric: true },
              { label: t('review.learner') },
              { label: t('review.set') },
              { label: t('review.score'), numeric: true },
              { label: <span className="visually-hidden">{t('roster.actions')}</span> },
            ]}
          />
          <tbody>
            {scans.map((scan) => (
              <tr key={scan.id}>
                <td className="admin-num">{scan.roll_number === null ? '' : n(scan.roll_number)}</td>
                <td>{scan.learner?.full_name || scan.learner?.username}</td>
                <td>{scan.set}</td>
                <td className="admin-num">{formatScore(scan.score ?? 0, language)}</td>
                <td>
                  <Button
                    small
                    aria-expanded={open === scan.id}
                    aria-label={t('review.open_named', { roll: scan.roll_number ?? '' })}
                    onClick={() => setOpen(open === scan.id ? null : scan.id)}
                  >
                    {open === scan.id ? t('review.hide') : t('review.open')}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {opened && (
        <RecordedSheet
          key={opened.id}
          sitting={sitting}
          scan={opened}
          onNotice={onNotice}
          onGone={() => setOpen(null)}
        />
      )}
    </>
  )
}

/** A recorded sheet: its photo and every answer as read, each correctable (the attempt is re-scored), or deleted. */
function RecordedSheet({
  sitting,
  scan,
  onNotice,
  onGone,
}: {
  sitting: Sitting
  scan: Scan
  onNotice: (text: string) => void
  onGone: () => void
}) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language)
  const settle = useSettleScan(sitting.id, scan.id)
  const remove = useDeleteScan(sitting.id)
  const lettersOf = useRowLetters(sitting, scan.set)
  const [answers, setAnswers] = useState(scan.answers)
  const [confirming, setConfirming] = useState(false)
  const changed = Object.fromEntries(Object.entries(answers).filter(([key, value]) => scan.answers[key] !== value))
  const numbers = Object.keys(scan.answers)
    .map(Number)
    .sort((a, b) => a - b)
  return (
    <article className="card review-card" aria-labelledby="recorded-sheet">
      <h3 id="recorded-sheet">
        {scan.learner?.full_name || scan.learner?.username} ·{' '}
        {t('outcome.roll_set', { roll: scan.roll_number === null ? '?' : n(scan.roll_number), set: scan.set ?? '?' })} ·{' '}
        {t('outcome.score', { score: formatScore(scan.score ?? 0, language) })}
      </h3>
      <div className="review-card__body">
        <ScanPhoto scan={scan} />
        <div className="stack">
          <div className="review-answers">
            {numbers.map((number) => {
              const key = String(number)
              return (
                <label key={key} className="review-answer">
                  <span>{n(number)}</span>
                  <select
                    aria-label={t('review.answer_of', { number: n(number) })}
                    value={answers[key] ?? ''}
                    onChange={(event) => setAnswers({ ...answers, [key]: event.target.value || null })}
                  >
                    <option value="">–</option>
                    {lettersOf(number, scan.answers[key] ? [scan.answers[key]!] : []).map((letter) => (
                      <option key={letter} value={letter}>
                        {letter}
                      </option>
                    ))}
                  </select>
                </label>
              )
            })}
          </div>
          {settle.isError && <Alert kind="error">{t('review.correct_failed')}</Alert>}
          {remove.isError && <Alert kind="error">{t('review.delete_failed')}</Alert>}
          <div className="actions">
            <Button
              variant="primary"
              disabled={Object.keys(changed).length === 0 || settle.isPending}
              onClick={() =>
                settle.mutate(
                  { answers: changed },
                  {
                    onSuccess: (saved) =>
                      onNotice(t('review.corrected', { score: formatScore(saved.score ?? 0, language) })),
                  },
                )
              }
            >
              {t('review.save_corrections')}
            </Button>
            <Button variant="danger" onClick={() => setConfirming(true)}>
              {t('review.delete')}
            </Button>
          </div>
        </div>
      </div>
      <ConfirmDeleteDialog
        open={confirming}
        title={t('review.delete_title')}
        message={t('review.delete_message')}
        pending={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          void remove.mutateAsync(scan.id).then(
            () => {
              onNotice(t('review.deleted'))
              onGone()
            },
            () => setConfirming(false),
          )
        }
      />
    </article>
  )
}
