import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { paths } from '../../lib/paths'
import { useRouteId } from '../../lib/route-id'
import { LanguageToggle } from '../../components/layout/language-switcher'
import { Alert } from '../../components/ui/alert'
import { Loading } from '../../components/ui/loading'
import { RichPreview, RichText } from '../../components/ui/rich-text'
import { useLanguage } from '../../i18n/use-bilingual'
import { formatDate, formatDateTime, formatNumber } from '../../lib/format'
import { AnalysisPanel, useDuration } from './analysis-panel'
import { AnswerSheet } from './answer-sheet'
import { challengeWindowOpen } from './challenge-window'
import { KeyChanged } from './key-changed'
import { QuestionDetailDialog } from './question-detail-dialog'
import { questionStatus, selectedOptions } from './question-status'
import { resultQueries, type ReportCard } from './results.api'
import { ReportSections, ScoreOfMax, type ReportMarks } from './report-sections'
import './results.css'
import './results.i18n'
import { buttonClass } from '../../components/ui/button'
import { WrittenAnswers } from './written-answers'
import './written.i18n'

/** SPEC.md: a report row shows the first 60 characters of the question. */
const ROW_PREVIEW_LENGTH = 60

/**
 * The most the headline's score can be: `score` holds the choice part and the released written marks, `max_score`
 * the choice part only (API.md "Written answers marked by rubric"), so the written part's marks join it. A paper of
 * written questions alone has a choice part of 0, and read "7.00 of 0" without them.
 */
const headlineMax = (choiceMax: number | undefined, written: ReportCard['written']) =>
  choiceMax === undefined ? undefined : choiceMax + (written?.max_marks ?? 0)

export function Component() {
  const { t } = useTranslation('results')
  const { t: tWritten } = useTranslation('written')
  const duration = useDuration()
  const language = useLanguage()
  const id = useRouteId('attemptId')
  const valid = id !== null
  const report = useQuery({ ...resultQueries.report(id ?? 0), enabled: valid })
  const [openIndex, setOpenIndex] = useState<number | null>(null)

  if (!valid || report.isError) {
    return (
      <div className="card center-card">
        <Alert kind="error">{t('report.load_failed')}</Alert>
        <Link className={buttonClass({ variant: 'primary' })} to={paths.results()}>
          {t('report.back')}
        </Link>
      </div>
    )
  }
  if (report.isPending) return <Loading label={t('report.loading')} />

  const card = report.data
  const marks = card as ReportMarks
  const chosen = selectedOptions(card)
  const answerOf = new Map(card.answers.map((answer) => [answer.question, answer]))
  const keyWithheld = card.key_withheld !== null
  const rows = card.questions.map((question) => {
    const selected = chosen.get(question.id) ?? null
    const answer = answerOf.get(question.id)
    return {
      question,
      selected,
      status: questionStatus(question, selected, keyWithheld),
      marked: answer?.marked ?? false,
      seconds: answer?.time_spent_seconds ?? 0,
      flag: answer?.flag ?? null,
      regrade: answer?.regrade ?? null,
    }
  })
  const open = openIndex === null ? null : rows[openIndex]

  return (
    <div className="report">
      <div className="page-header">
        <RichText as="h1" text={card.quiz.title} />
        <LanguageToggle />
      </div>

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
        <dl className="report-summary__counts">
          <div className="report-summary__count report-summary__count--correct">
            <dt>{t('status.correct')}</dt>
            <dd>{formatNumber(card.correct, language)}</dd>
          </div>
          <div className="report-summary__count report-summary__count--incorrect">
            <dt>{t('status.incorrect')}</dt>
            <dd>{formatNumber(card.incorrect, language)}</dd>
          </div>
          <div className="report-summary__count report-summary__count--unanswered">
            <dt>{t('status.unanswered')}</dt>
            <dd>{formatNumber(card.unanswered, language)}</dd>
          </div>
        </dl>
      </section>

      {keyWithheld && (
        <Alert kind="info">
          {card.key_withheld_until !== null
            ? t(
                card.key_withheld === 'written_uploads' ? 'report.key_withheld_written_uploads' : 'report.key_withheld',
                {
                  time: formatDateTime(card.key_withheld_until, language),
                },
              )
            : t(
                card.key_withheld === 'paid_access'
                  ? 'report.key_withheld_paid_access'
                  : 'report.key_withheld_unpublished',
              )}
        </Alert>
      )}
      {marks.sections && marks.sections.length > 1 && <ReportSections sections={marks.sections} />}
      {card.analysis && <AnalysisPanel analysis={card.analysis} />}

      <section aria-labelledby="analysis-heading">
        <h2 id="analysis-heading">{t('report.analysis')}</h2>
        <ol className="analysis">
          {rows.map(({ question, status, marked, seconds, flag, regrade }, index) => (
            <li key={question.id}>
              <button
                type="button"
                className="row-button analysis__row"
                aria-haspopup="dialog"
                onClick={() => setOpenIndex(index)}
              >
                <span className="analysis__number">{formatNumber(index + 1, language)}.</span>
                <span className="analysis__text">
                  <RichPreview text={question.text} maxLength={ROW_PREVIEW_LENGTH} />
                </span>
                <span className="analysis__meta">
                  {/* A sheet read from a photo says nothing of the time a question took. */}
                  {card.mode !== 'paper' && (
                    <span className="analysis__time">
                      <span className="visually-hidden">{t('time.label')}: </span>
                      {duration(seconds)}
                    </span>
                  )}
                  {marked && <span className="badge badge--marked">{t('marked')}</span>}
                  {flag && !regrade && (
                    <span className={`badge badge--flag-${flag.status}`}>
                      {t('challenge.status_label')}: {t(`challenge.status.${flag.status}`)}
                    </span>
                  )}
                  {regrade && <KeyChanged regrade={regrade} />}
                  {/* A written question (no options) is marked below, not right or wrong here. */}
                  {card.written !== null && question.options.length === 0 ? (
                    <span className="badge">{tWritten('row_badge')}</span>
                  ) : (
                    <span className={`badge badge--${status}`}>{t(`status.${status}`)}</span>
                  )}
                </span>
              </button>
            </li>
          ))}
        </ol>
      </section>

      {card.written !== null && <WrittenAnswers card={card} />}

      <p>
        <Link to={paths.results()}>{t('report.back')}</Link>
      </p>

      <QuestionDetailDialog
        question={open?.question ?? null}
        number={(openIndex ?? 0) + 1}
        selectedOptionId={open?.selected ?? null}
        status={open?.status ?? 'unanswered'}
        attemptId={card.id}
        flag={open?.flag ?? null}
        regrade={open?.regrade ?? null}
        challengeOpen={!keyWithheld && challengeWindowOpen(card)}
        onClose={() => setOpenIndex(null)}
      />
    </div>
  )
}
