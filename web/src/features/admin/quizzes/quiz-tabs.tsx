import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import '../institutions.i18n'
import '../bank/bank.i18n'
import { Link, NavLink } from 'react-router'
import { useBilingual } from '../../../i18n/use-bilingual'
import { paths } from '../../../lib/paths'
import { adminQueries } from './quizzes.api'
import '../admin.i18n'

/** The quiz admin page's tabs (WEB.md "Administrators' analysis"): each tab is its own route and chunk. */
export function QuizTabs({ quizId }: { quizId: number }) {
  const { t } = useTranslation('admin')
  return (
    <nav className="admin-tabs" aria-label={t('tabs.label')}>
      <NavLink to={paths.adminEditQuiz(quizId)}>{t('tabs.details')}</NavLink>
      <NavLink to={paths.adminQuizPaper(quizId)}>{t('paper.tab', { ns: 'bank' })}</NavLink>
      <NavLink to={paths.adminQuizSittings(quizId)}>{t('tabs.sittings')}</NavLink>
      <NavLink to={paths.adminQuizAttempts(quizId)}>{t('tabs.attempts')}</NavLink>
      <NavLink to={paths.adminQuizStatistics(quizId)}>{t('tabs.statistics')}</NavLink>
      <NavLink to={paths.adminQuizMarking(quizId)}>{t('tabs.marking')}</NavLink>
    </nav>
  )
}

/** The back link, heading and tabs shared by the Attempts and Statistics tabs. */
export function QuizTabHeader({
  quizId,
  titleKey,
}: {
  quizId: number
  titleKey: 'attempts.title' | 'statistics.title'
}) {
  const { t } = useTranslation('admin')
  const { t: tInstitutions } = useTranslation('institutions')
  const pick = useBilingual()
  // The title comes from the quiz the Details tab also reads (cached); until it arrives the heading has none.
  const quiz = useQuery(adminQueries.quiz(quizId))
  const title = pick(quiz.data?.title)
  return (
    <>
      <p className="admin-back">
        <Link to={paths.admin()}>{t('common.back_to_dashboard')}</Link>
      </p>
      <h1>{tInstitutions(titleKey, { title })}</h1>
      <QuizTabs quizId={quizId} />
    </>
  )
}
