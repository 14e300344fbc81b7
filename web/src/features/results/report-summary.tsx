import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Alert } from '../../components/ui/alert'
import { useLanguage } from '../../i18n/use-bilingual'
import { formatDate, formatDateTime, formatNumber } from '../../lib/format'
import { paths } from '../../lib/paths'
import { AnswerSheet } from './answer-sheet'
import { ScoreOfMax, type ReportMarks } from './report-sections'
import type { ReportCard } from './results.api'
import './results.i18n'

/**
 * The most the headline's score can be: `score` holds the choice part and the released written marks, `max_score`
 * the choice part only (API.md "Written answers marked by rubric"), so the written part's marks join it. A paper of
 * written questions alone has a choice part of 0, and read "7.00 of 0" without them.
 */
const headlineMax = (choiceMax: number | undefined, written: ReportCard['written']) =>
  choiceMax === undefined ? undefined : choiceMax + (written?.max_marks ?? 0)

/** The headline: the final score, the attempt and when, and the counts of right, partly right, wrong and unanswered. */
export function ReportSummary({ card }: { card: ReportCard }) {
  const { t } = useTranslation('results')
  const language = useLanguage()
  const marks = card as ReportMarks
  // API.md counts a partly right answer in `incorrect` as well: shown apart, so the counts still add up.
  const partial = card.partial ?? 0
  return (
    <section className="report-summary card" aria-labelledby="report-score-label">
      <div className="report-summary__score">
        <p id="report-score-label" className="report-summary__label">
          {t('report.final_score')}
        </p>
        <p className="report-summary__value">
          <ScoreOfMax score={card.score} max={headlineMax(marks.max_score, card.written)} />
        </p>
        {card.marking === 'pending' && (
          <p>
            <span className="badge badge--pending">{t('written_part.awaiting')}</span>
          </p>
        )}
        <p className="muted">
          {t('attempt_number', { number: card.attempt_number })} ·{' '}
          {card.mode === 'paper' && <span className="badge badge--paper">{t('on_paper')}</span>}{' '}
          <time dateTime={card.completed_timestamp}>
            {card.mode === 'paper'
              ? formatDate(card.completed_timestamp, language)
              : formatDateTime(card.completed_timestamp, language)}
          </time>
        </p>
        {card.mode === 'paper' && <AnswerSheet attemptId={card.id} />}
        {card.quiz.live && (
          <p className="report-summary__live">
            {!card.ranked && <span className="badge badge--practice">{t('practice_unranked')}</span>}
            <Link to={paths.leaderboard(card.quiz.id)}>{t('leaderboard')}</Link>
          </p>
        )}
      </div>
      <dl className={`report-summary__counts${partial > 0 ? ' report-summary__counts--four' : ''}`}>
        <div className="report-summary__count report-summary__count--correct">
          <dt>{t('status.correct')}</dt>
          <dd>{formatNumber(card.correct, language)}</dd>
        </div>
        <div className="report-summary__count report-summary__count--incorrect">
          <dt>{t('status.incorrect')}</dt>
          <dd>{formatNumber(card.incorrect - partial, language)}</dd>
        </div>
        {partial > 0 && (
          <div className="report-summary__count report-summary__count--partial">
            <dt>{t('status.partial')}</dt>
            <dd>{formatNumber(partial, language)}</dd>
          </div>
        )}
        <div className="report-summary__count report-summary__count--unanswered">
          <dt>{t('status.unanswered')}</dt>
          <dd>{formatNumber(card.unanswered, language)}</dd>
        </div>
      </dl>
    </section>
  )
}

/** Why the answer key is not shown yet, and until when where that is known. */
export function KeyWithheldNotice({ card }: { card: ReportCard }) {
  const { t } = useTranslation('results')
  const language = useLanguage()
  return (
    <Alert kind="info">
      {card.key_withheld_until !== null
        ? t(card.key_withheld === 'written_uploads' ? 'report.key_withheld_written_uploads' : 'report.key_withheld', {
            time: formatDateTime(card.key_withheld_until, language),
          })
        : t(
            card.key_withheld === 'paid_access' ? 'report.key_withheld_paid_access' : 'report.key_withheld_unpublished',
          )}
    </Alert>
  )
}

/** A screen reader's adapted paper (API.md "Blind learners"): what was left out and how the marks were rescaled. */
export function AdaptedNotice({ leftOut }: { leftOut: number }) {
  const { t } = useTranslation('results')
  return <Alert kind="info">{t('report.adapted', { count: leftOut })}</Alert>
}
