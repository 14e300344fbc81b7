import { useTranslation } from 'react-i18next'
import { RichPreview } from '../../../components/ui/rich-text'
import { useBilingual, useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { optionLetter } from '../../../lib/option-letters'
import { TableHead, TableScroll } from '../ui'
import type { QuizStatistics } from './reports.api'
import '../institutions.i18n'

// The statistics screen's tables: the summary figures, the item analysis, and the written questions' marks.

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

/** The screen's figures in the admin's language, without grouping, and "not available" where there is none. */
function useFigures() {
  const { t } = useTranslation('institutions')
  const language = useLanguage()
  return {
    decimals: (value: number | null, places: number) =>
      value === null
        ? t('statistics.not_available')
        : formatNumber(value, language, {
            minimumFractionDigits: places,
            maximumFractionDigits: places,
            useGrouping: false,
          }),
    count: (value: number) => formatNumber(value, language, { useGrouping: false }),
    marks: (value: number) => formatNumber(value, language, { maximumFractionDigits: 2, useGrouping: false }),
    percent: (value: number | null) =>
      value === null ? t('statistics.not_available') : formatNumber(value, language, { style: 'percent' }),
  }
}

export function SummaryTable({ data }: { data: QuizStatistics }) {
  const { t } = useTranslation('institutions')
  const { count, decimals } = useFigures()
  const summaryValue = (key: (typeof SUMMARY)[number]) =>
    key === 'attempts' ? count(data.attempts) : decimals(data[key], 2)
  return (
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
                <td className="admin-num">{summaryValue(key)}</td>
                <td className="muted">{t(`statistics.${key}_help`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  )
}

export function QuestionsTable({ questions }: { questions: QuizStatistics['questions'] }) {
  const { t } = useTranslation('institutions')
  const { count, decimals, percent } = useFigures()
  return (
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
            {questions.map((question) => (
              <tr key={question.id}>
                <td>{count(question.number)}</td>
                <td>
                  <RichPreview text={question.text} maxLength={80} />
                </td>
                <td className="admin-num">{percent(question.facility)}</td>
                <td className="admin-num">{decimals(question.discrimination, 2)}</td>
                <td>
                  <OptionCounts question={question} />
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
  )
}

function OptionCounts({ question }: { question: QuizStatistics['questions'][number] }) {
  const { t } = useTranslation('institutions')
  const pick = useBilingual()
  const language = useLanguage()
  const { count } = useFigures()
  return (
    <ul className="statistics-options">
      {question.options.map((option, index) => (
        <li key={option.id} className={option.is_correct ? 'statistics-options__correct' : undefined}>
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
  )
}

export function WrittenTable({ written }: { written: QuizStatistics['written'] }) {
  const { t } = useTranslation('institutions')
  const { count, decimals, marks, percent } = useFigures()
  return (
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
            {written.map((question) => (
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
  )
}
