import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useRouteId } from '../../../lib/route-id'
import { QuizTabHeader } from '../quizzes/quiz-tabs'
import { QueryStates } from '../ui'
import { reportQueries, type StatisticsSelection } from './reports.api'
import { ScoreHistogram } from './score-histogram'
import { QuestionsTable, SummaryTable, WrittenTable } from './statistics-tables'
import '../institutions.i18n'
import '../admin.css'

const SELECTIONS: StatisticsSelection[] = ['first', 'all']

/** /admin/quiz/{id}/statistics: Moodle-style item analysis with each figure explained in a sentence. */
export function Component() {
  const { t } = useTranslation('institutions')
  const quizId = useRouteId('quizId') ?? 0
  const [which, setWhich] = useState<StatisticsSelection>('first')
  const statistics = useQuery({
    ...reportQueries.statistics(quizId, which),
    enabled: quizId > 0,
    placeholderData: (previous) => previous,
  })
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
            <SummaryTable data={data} />

            <section className="card" aria-labelledby="statistics-histogram">
              <h2 id="statistics-histogram">{t('statistics.histogram')}</h2>
              <p className="muted">{t('statistics.histogram_help')}</p>
              <ScoreHistogram scores={data.scores} fullMarks={data.question_count} />
            </section>

            <QuestionsTable questions={data.questions} />
            {data.written.length > 0 && <WrittenTable written={data.written} />}
          </>
        )}
      </QueryStates>
    </div>
  )
}
