import { useTranslation } from 'react-i18next'
import { RichPreview } from '../../components/ui/rich-text'
import { useLanguage } from '../../i18n/use-bilingual'
import { formatNumber } from '../../lib/format'
import { useDuration } from './analysis-panel'
import { KeyChanged } from './key-changed'
import { givenAnswer, questionStatus } from './question-status'
import type { ReportCard } from './results.api'
import './results.i18n'
import './written.i18n'

/** SPEC.md: a report row shows the first 60 characters of the question. */
const ROW_PREVIEW_LENGTH = 60

/** Each question of the report with the learner's answer: chosen option, status, time, mark, flag and regrade. */
export function reportRows(card: ReportCard) {
  const answerOf = new Map(card.answers.map((answer) => [answer.question, answer]))
  const keyWithheld = card.key_withheld !== null
  return card.questions.map((question) => {
    const answer = answerOf.get(question.id)
    const given = givenAnswer(answer)
    return {
      question,
      given,
      status: questionStatus(question, given, keyWithheld),
      marked: answer?.marked ?? false,
      seconds: answer?.time_spent_seconds ?? 0,
      flag: answer?.flag ?? null,
      regrade: answer?.regrade ?? null,
    }
  })
}

type ReportRow = ReturnType<typeof reportRows>[number]

interface ReportAnalysisProps {
  card: ReportCard
  rows: ReportRow[]
  onOpen: (index: number) => void
}

/** The question-by-question list; a row opens the question in detail. */
export function ReportAnalysis({ card, rows, onOpen }: ReportAnalysisProps) {
  const { t } = useTranslation('results')
  const { t: tWritten } = useTranslation('written')
  const duration = useDuration()
  const language = useLanguage()
  return (
    <section aria-labelledby="analysis-heading">
      <h2 id="analysis-heading">{t('report.analysis')}</h2>
      <ol className="analysis">
        {rows.map(({ question, status, marked, seconds, flag, regrade }, index) => (
          <li key={question.id}>
            <button
              type="button"
              className="row-button analysis__row"
              aria-haspopup="dialog"
              onClick={() => onOpen(index)}
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
  )
}
