import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { dailyTodayQuery } from '../../api/daily'
import { LanguageToggle } from '../../components/layout/language-switcher'
import { Alert } from '../../components/ui/alert'
import { buttonClass } from '../../components/ui/button'
import { Loading } from '../../components/ui/loading'
import { RichText } from '../../components/ui/rich-text'
import { paths } from '../../lib/paths'
import { useRouteId } from '../../lib/route-id'
import { AnalysisPanel } from './analysis-panel'
import { challengeWindowOpen } from './challenge-window'
import { QuestionDetailDialog } from './question-detail-dialog'
import { fullMarksOf } from './question-status'
import { ReportAnalysis, reportRows } from './report-analysis'
import { ReportSections, type ReportMarks } from './report-sections'
import { AdaptedNotice, KeyWithheldNotice, ReportSummary } from './report-summary'
import { resultQueries } from './results.api'
import { WrittenAnswers } from './written-answers'
import { TimeVsTop } from './time-vs-top'
import { DailyAfter } from './daily-after'
import './results.css'
import './results.i18n'
import './written.i18n'

export function Component() {
  const { t } = useTranslation('results')
  const id = useRouteId('attemptId')
  const valid = id !== null
  const report = useQuery({ ...resultQueries.report(id ?? 0), enabled: valid })
  const [openIndex, setOpenIndex] = useState<number | null>(null)
  // Today's set: the report is followed by the day's leaderboard and the streak (WEB.md "The daily set").
  const today = useQuery({ ...dailyTodayQuery(), enabled: valid }).data

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
  const keyWithheld = card.key_withheld !== null
  const rows = reportRows(card)
  const open = openIndex === null ? null : rows[openIndex]

  return (
    <div className="report">
      <div className="page-header">
        <RichText as="h1" text={card.quiz.title} />
        <LanguageToggle />
      </div>

      <ReportSummary card={card} />

      {keyWithheld && <KeyWithheldNotice card={card} />}
      {card.adapted && <AdaptedNotice leftOut={card.adapted.left_out} />}
      {marks.sections && marks.sections.length > 1 && <ReportSections sections={marks.sections} />}
      {card.analysis && <AnalysisPanel analysis={card.analysis} />}
      {today && today.quiz_id === card.quiz.id && <DailyAfter today={today} />}

      <ReportAnalysis card={card} rows={rows} onOpen={setOpenIndex} />

      <TimeVsTop card={card} />

      {card.written !== null && <WrittenAnswers card={card} />}

      <p>
        <Link to={paths.results()}>{t('report.back')}</Link>
      </p>

      <QuestionDetailDialog
        question={open?.question ?? null}
        number={(openIndex ?? 0) + 1}
        given={open?.given ?? null}
        fullMarks={fullMarksOf(marks.sections ? { ...card, ...marks } : card)}
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
