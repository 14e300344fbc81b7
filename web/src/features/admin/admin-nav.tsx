import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { NavLink } from 'react-router'
import { formatNumber } from '../../lib/format'
import { paths } from '../../lib/paths'
import { flagQueries } from './challenges/key-challenges.api'
// Its words are the admin namespace's: a page opened directly (a reload of /admin/audit) may not have loaded it yet.
import './admin.i18n'
import './bank/bank.i18n'
import './import/import.i18n'
import '../../i18n/institute.i18n'
import '../../i18n/platform.i18n'

/** Tabs between the admin's screens: quizzes, bank, import, learners, members, plans, payments, the audit log and more. */
export function AdminNav() {
  const { t, i18n } = useTranslation('admin')
  // WEB.md: "Key challenges" shows how many questions have open flags; a failed load leaves the number out.
  const open = useQuery({ ...flagQueries.queue('open'), staleTime: 60_000 }).data?.count ?? 0
  return (
    <nav className="admin-nav" aria-label={t('nav.label')}>
      <NavLink to={paths.admin()} end>
        {t('nav.quizzes')}
      </NavLink>
      <NavLink to={paths.adminBank()}>{t('nav', { ns: 'bank' })}</NavLink>
      <NavLink to={paths.adminPlatformBank()}>{t('bank.nav', { ns: 'platform' })}</NavLink>
      <NavLink to={paths.adminNationalMocks()}>{t('national.nav', { ns: 'platform' })}</NavLink>
      <NavLink to={paths.adminImport()}>{t('nav', { ns: 'import' })}</NavLink>
      <NavLink to={paths.adminFontConverter()}>{t('converter.nav', { ns: 'import' })}</NavLink>
      <NavLink to={paths.adminKeyChallenges()}>
        {t('nav.key_challenges')}
        {open > 0 && (
          <>
            {' '}
            <span className="nav-count" aria-hidden="true">
              {formatNumber(open, i18n.language)}
            </span>
            <span className="visually-hidden">({t('nav.key_challenges_open', { count: open })})</span>
          </>
        )}
      </NavLink>
      <NavLink to={paths.adminDailySet()}>{t('nav.daily_set')}</NavLink>
      <NavLink to={paths.adminLearners()}>{t('nav.learners')}</NavLink>
      <NavLink to={paths.adminMembers()}>{t('nav.members')}</NavLink>
      <NavLink to={paths.adminPlans()}>{t('nav.plans')}</NavLink>
      <NavLink to={paths.adminPayments()}>{t('nav.payments')}</NavLink>
      <NavLink to={paths.adminAudit()}>{t('nav.audit')}</NavLink>
      <NavLink to={paths.adminInstituteSettings()}>{t('nav', { ns: 'institute' })}</NavLink>
    </nav>
  )
}
