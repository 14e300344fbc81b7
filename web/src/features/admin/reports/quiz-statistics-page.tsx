import { optionLetter } from '../../../lib/option-letters'
import { useRouteId } from '../../../lib/route-id'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import '../institutions.i18n'
import { useBilingual, useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { RichPreview } from '../../../components/ui/rich-text'
import { reportQueries, type QuizStatistics, type StatisticsSelection } from './reports.api'
import { QuizTabHeader } from '../quizzes/quiz-tabs'
import { ScoreHistogram } from './score-histogram'
import { QueryStates, TableHead, TableScroll } from '../ui'
import '../admin.css'

const SELECTIONS: StatisticsSelection[] = ['first', 'all']
const SUMMARY = [
  'attempts',
  'mean',
  'median',
  'standard_deviation',
  'highest',
  'lowest',
  'cronbach_alpha',
  'standard_error',
] as const

/** /admin/quiz/{id}/statistics: Moodle-style item analysis with each figure explained in a sentence. */
export function Component() {
  const { t } = useTranslation('institutions')
  const pick = useBilingual()
  const quizId = useRouteId('quizId') ?? 0
  const [which, setWhich] = useState<StatisticsSelection>('first')
  const statistics = useQuery({
    ...reportQueries.statistics(quizId, which),
    enabled: quizId > 0,
    placeholderData: (previous) => previous,
  })
  const language = useLanguage()
  const decimals = (value: number | null, places: number) =>
    value === null
      ? t('statistics.not_available')
      : formatNumber(value, language, {
          minimumFractionDigits: places,
          maximumFractionDigits: places,
          useGrouping: false,
        })
  const count = (value: number) => formatNumber(value, language, { useGrouping: false })
  const marks = (value: number) => formatNumber(value, language, { maximumFractionDigits: 2, useGrouping: false })
  const percent = (value: number | null) =>
    value === null ? t('statistics.not_available') : formatNumber(value, language, { style: 'percent' })

  const summaryValue = (data: QuizStatistics, key: (typeof SUMMARY)[number]) => {
    if (key === 'attempts') return count(data.attempts)
    return decimals(data[key], 2)
  }

  return (
    <div className="admin">
      <QuizTabHeader quizId={quizId} titleKey="statistics.title" />
      <div className="field admin-filter">
        <label htmlFor="statistics-which">{t('statistics.which')}</label>
        <select
          id="statistics-which"
          value={which}
          onChange={(event) => setWhich(event.target.value as StatisticsSelection)}
        >
          {SELECTIONS.map((value) => (
            <option key={value} value={value}>
              {t(`statistics.which_${value}`)}
            </option>
          ))}
        </select>
      </div>

      <QueryStates query={statistics} isEmpty={(data) => data.attempts === 0} text={(key) => t(`statistics.${key}`)}>
        {(data) => (
          <>
            <section className="card" aria-labelledby="statistics-summary">
              <h2 id="statistics-summary">{t('statistics.summary')}</h2>
              <TableScroll label={t('statistics.summary')}>
                <table className="admin-table statistics-summary">
                  <TableHead
                    columns={[
                      { label: t('statistics.figure') },
                      { label: t('statistics.value'), numeric: true },
                      { label: t('statistics.meaning') },
                    ]}
                  />
                  <tbody>
                    {SUMMARY.map((key) => (
                      <tr key={key}>
                        <th scope="row">{t(`statistics.${key}`)}</th>
                        <td className="admin-num">{summaryValue(data, key)}</td>
                        <td className="muted">{t(`statistics.${key}_help`)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            </section>

            <section className="card" aria-labelledby="statistics-histogram">
              <h2 id="statistics-histogram">{t('statistics.histogram')}</h2>
              <p className="muted">{t('statistics.histogram_help')}</p>
              <ScoreHistogram scores={data.scores} fullMarks={data.question_count} />
            </section>

            <section className="card" aria-labelledby="statistics-questions">
              <h2 id="statistics-questions">{t('statistics.questions')}</h2>
              <ul className="muted statistics-help">
                <li>{t('statistics.questions_help')}</li>
                <li>{t('statistics.facility_help')}</li>
                <li>{t('statistics.discrimination_help')}</li>
                <li>{t('statistics.options_help')}</li>
                <li>{t('statistics.flags_help')}</li>
              </ul>
              <TableScroll label={t('statistics.questions')}>
                <table className="admin-table statistics-questions">
                  <TableHead
                    columns={[
                      { label: t('statistics.number') },
                      { label: t('statistics.question') },
                      { label: t('statistics.facility'), numeric: true },
                      { label: t('statistics.discrimination'), numeric: true },
                      { label: t('statistics.options') },
                      { label: t('statistics.unanswered'), numeric: true },
                      { label: t('statistics.flags') },
                    ]}
                  />
                  <tbody>
                    {data.questions.map((question) => (
                      <tr key={question.id}>
                        <td>{count(question.number)}</td>
                        <td>
                          <RichPreview text={question.text} maxLength={80} />
                        </td>
                        <td className="admin-num">{percent(question.facility)}</td>
                        <td className="admin-num">{decimals(question.discrimination, 2)}</td>
                        <td>
                          <ul className="statistics-options">
                            {question.options.map((option, index) => (
                              <li
                                key={option.id}
                                className={option.is_correct ? 'statistics-options__correct' : undefined}
                              >
                                <span title={pick(option.text)}>
                                  {optionLetter(index, language)}
                                  {option.is_correct && (
                                    <span aria-label={t('statistics.correct_mark')} role="img">
                                      {' ✓'}
                                    </span>
                                  )}
                                </span>{' '}
                                {count(option.count)}
                              </li>
                            ))}
                            {question.other > 0 && <li>{t('statistics.other', { total: count(question.other) })}</li>}
                          </ul>
                        </td>
                        <td className="admin-num">{count(question.unanswered)}</td>
                        <td>
                          {question.flags.map((flag) => (
                            <span key={flag} className={`statistics-flag statistics-flag--${flag}`}>
                              {t(`statistics.flag.${flag}`)}
                            </span>
                          ))}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            </section>

            {data.written.length > 0 && (
              <section className="card" aria-labelledby="statistics-written">
                <h2 id="statistics-written">{t('statistics.written')}</h2>
                <ul className="muted statistics-help">
                  <li>{t('statistics.written_help')}</li>
                  <li>{t('statistics.written_mean_help')}</li>
                  <li>{t('statistics.written_share_help')}</li>
                </ul>
                <TableScroll label={t('statistics.written')}>
                  <table className="admin-table statistics-written">
                    <TableHead
                      columns={[
                        { label: t('statistics.number') },
                        { label: t('statistics.question') },
                        { label: t('statistics.written_max'), numeric: true },
                        { label: t('statistics.written_marked'), numeric: true },
                        { label: t('statistics.written_mean'), numeric: true },
                        { label: t('statistics.written_share'), numeric: true },
                      ]}
                    />
                    <tbody>
                      {data.written.map((question) => (
                        <tr key={question.id}>
                          <td>{count(question.number)}</td>
                          <td>
                            <RichPreview text={question.text} maxLength={80} />
                          </td>
                          <td className="admin-num">{marks(question.max_marks)}</td>
                          <td className="admin-num">{count(question.marked)}</td>
                          <td className="admin-num">{decimals(question.mean, 2)}</td>
                          <td className="admin-num">{percent(question.share)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
              </section>
            )}
          </>
        )}
      </QueryStates>
    </div>
  )
}
