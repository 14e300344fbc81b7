import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { Loading } from '../../../components/ui/loading'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatMarks, formatNumber, formatScore } from '../../../lib/format'
import { ConfirmDeleteDialog } from '../confirm-dialog'
import { TableHead, TableScroll } from '../ui'
import { useFlagText } from './scan-outcome'
import { SittingFrame } from './sitting-frame'
import {
  sittingQueries,
  useDeleteScan,
  useSettleScan,
  type Roster,
  type Scan,
  type Sitting,
  type SittingPaper,
  type SittingSet,
} from './sittings.api'
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

/** The kept photo of a sheet; tapping it shows it at full size, where the phone's pinch zoom works. */
function ScanPhoto({ scan }: { scan: Scan }) {
  const { t } = useTranslation('sittings')
  const image = useQuery(sittingQueries.scanImage(scan.id))
  const [zoomed, setZoomed] = useState(false)
  if (image.isError) return <Alert kind="error">{t('review.photo_failed')}</Alert>
  if (!image.data) return <Loading label={t('review.photo_loading')} />
  return (
    <div className={zoomed ? 'review-photo review-photo--zoomed' : 'review-photo'}>
      <img src={image.data} alt={t('review.photo_alt', { roll: scan.roll_number ?? '?' })} />
      <Button small onClick={() => setZoomed(!zoomed)} aria-pressed={zoomed}>
        {zoomed ? t('review.fit') : t('review.zoom')}
      </Button>
    </div>
  )
}

/** The question's section marks as printed on its set's booklet ("+2 / −0.5"). */
function useQuestionMarks(paper: SittingPaper | undefined) {
  const language = useLanguage()
  return (question: number) => {
    const section = paper?.sections.find((each) => each.questions.some((one) => one.number === question))
    return section
      ? `${formatMarks(section.marks_correct, language)} / ${formatMarks(-section.marks_wrong, language)}`
      : ''
  }
}

/** The letters a question's row has on the sheet (from the set's sheet layout); the marked ones while it loads. */
function useRowLetters(sitting: Sitting, set: SittingSet | null) {
  const layout = useQuery({ ...sittingQueries.layout(sitting.id, set ?? 'A'), enabled: set !== null })
  return (question: number, marked: readonly string[]) =>
    layout.data?.questions.find((row) => row.number === question)?.options.map((option) => option.label) ?? [...marked]
}

interface Decision {
  answers: Record<string, string | null>
  roll: string
  set: SittingSet | ''
}

function ScanCard({
  sitting,
  scan,
  roster,
  onSettled,
}: {
  sitting: Sitting
  scan: Scan
  roster?: Roster
  onSettled: (scan: Scan) => void
}) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language)
  const flagText = useFlagText()
  const settle = useSettleScan(sitting.id, scan.id)
  const [decision, setDecision] = useState<Decision>({ answers: {}, roll: '', set: '' })
  const set = (decision.set || scan.set) as SittingSet | null
  const paper = useQuery({ ...sittingQueries.paper(sitting.id, set ?? 'A'), enabled: set !== null })
  const marksOf = useQuestionMarks(paper.data)
  const lettersOf = useRowLetters(sitting, set)
  const questionFlags = scan.flags.filter((flag) => flag.question !== null)
  const needsRoll = scan.flags.some((flag) => flag.kind === 'roll')
  const needsSet = scan.flags.some((flag) => flag.kind === 'set')
  const undecided =
    questionFlags.some((flag) => !(String(flag.question) in decision.answers)) ||
    (needsRoll && !decision.roll) ||
    (needsSet && !decision.set)
  // mutateAsync, not mutate's callbacks: once settled the sheet leaves the list (the refetch unmounts this card),
  // and the review page, which stays, says what became of it.
  const submit = () =>
    void settle
      .mutateAsync({
        ...(questionFlags.length ? { answers: decision.answers } : {}),
        ...(decision.roll ? { roll_number: Number(decision.roll) } : {}),
        ...(decision.set ? { set: decision.set } : {}),
      })
      .then(onSettled, () => undefined)
  const who = scan.learner ? scan.learner.full_name || scan.learner.username : t('outcome.unknown_learner')
  return (
    <article className="card review-card" aria-labelledby={`scan-${scan.id}`}>
      <h3 id={`scan-${scan.id}`}>
        {who} ·{' '}
        {t('outcome.roll_set', { roll: scan.roll_number === null ? '?' : n(scan.roll_number), set: scan.set ?? '?' })}
      </h3>
      <div className="review-card__body">
        <ScanPhoto scan={scan} />
        <div className="review-card__flags stack">
          {needsRoll && (
            <div className="field review-flag">
              <label htmlFor={`roll-${scan.id}`}>{flagText({ kind: 'roll', question: null, marks: [] })}</label>
              <select
                id={`roll-${scan.id}`}
                value={decision.roll}
                onChange={(event) => setDecision({ ...decision, roll: event.target.value })}
              >
                <option value="">{t('review.choose_learner')}</option>
                {roster?.roster.map((entry) => (
                  <option key={entry.roll_number} value={entry.roll_number}>
                    {t('counts.missing_line', {
                      roll: n(entry.roll_number),
                      name: entry.user.full_name || entry.user.username,
                    })}
                  </option>
                ))}
              </select>
            </div>
          )}
          {needsSet && (
            <div className="field review-flag">
              <label htmlFor={`set-${scan.id}`}>{flagText({ kind: 'set', question: null, marks: [] })}</label>
              <select
                id={`set-${scan.id}`}
                value={decision.set}
                onChange={(event) => setDecision({ ...decision, set: event.target.value as SittingSet | '' })}
              >
                <option value="">{t('review.choose_set')}</option>
                {sitting.sets.map((each) => (
                  <option key={each} value={each}>
                    {each}
                  </option>
                ))}
              </select>
            </div>
          )}
          {questionFlags.map((flag) => {
            const question = flag.question!
            const key = String(question)
            const chosen = decision.answers[key]
            const marks = marksOf(question)
            return (
              <fieldset key={key} className="review-flag review-flag--question">
                <legend>
                  <strong>{t('review.question', { number: n(question) })}</strong>
                  {marks && <span className="muted"> ({marks})</span>}
                  <span className="review-flag__why">{flagText(flag)}</span>
                </legend>
                <div className="review-choices">
                  {[...lettersOf(question, flag.marks), null].map((letter) => (
                    <label
                      key={letter ?? 'blank'}
                      className={
                        letter !== null && flag.marks.includes(letter)
                          ? 'review-choice review-choice--marked'
                          : 'review-choice'
                      }
                    >
                      <input
                        type="radio"
                        name={`scan-${scan.id}-q-${question}`}
                        checked={key in decision.answers && chosen === letter}
                        onChange={() => setDecision({ ...decision, answers: { ...decision.answers, [key]: letter } })}
                      />
                      {letter ?? t('review.blank')}
                    </label>
                  ))}
                </div>
              </fieldset>
            )
          })}
          {settle.isError && (
            <Alert kind="error">
              {settle.error instanceof ApiError && settle.error.status < 500
                ? (Object.values(settle.error.errors ?? {}).flat()[0] ?? settle.error.detail)
                : t('review.settle_failed')}
            </Alert>
          )}
          <div className="actions">
            <Button variant="primary" onClick={submit} disabled={undecided || settle.isPending}>
              {settle.isPending ? t('review.settling') : t('review.settle')}
            </Button>
          </div>
        </div>
      </div>
    </article>
  )
}

function RecordedTable({
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
