import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { paths } from '../../lib/paths'
import { useRouteId } from '../../lib/route-id'
import { useLanguage } from '../../i18n/use-bilingual'
import { formatNumber } from '../../lib/format'
import { MarkingOverview } from './marking-overview'
import './marking.i18n'

/** /marking/quiz/{id}: a marker's view of a quiz's written questions (markers see no admin screen). */
export function Component() {
  const { t } = useTranslation('marking')
  const language = useLanguage()
  const quizId = useRouteId('quizId')
  return (
    <div className="admin marking-home">
      <p className="admin-back">
        <Link to={paths.marking()}>{t('home.back')}</Link>
      </p>
      <h1>{t('home.quiz_title', { number: formatNumber(quizId ?? 0, language) })}</h1>
      {quizId === null ? <p>{t('overview.load_failed')}</p> : <MarkingOverview quizId={quizId} />}
    </div>
  )
}
