import { useTranslation } from 'react-i18next'
import { NavLink } from 'react-router'
import { paths } from '../../lib/paths'
// Its words are the admin namespace's: a page opened directly (a reload of /admin/audit) may not have loaded it yet.
import './admin.i18n'
import './bank/bank.i18n'

/** Tabs between the admin's quiz list, learners, plans, payments and the audit log. */
export function AdminNav() {
  const { t } = useTranslation('admin')
  return (
    <nav className="admin-nav" aria-label={t('nav.plans') + ' / ' + t('nav.payments')}>
      <NavLink to={paths.admin()} end>
        {t('nav.quizzes')}
      </NavLink>
      <NavLink to={paths.adminBank()}>{t('nav', { ns: 'bank' })}</NavLink>
      <NavLink to={paths.adminLearners()}>{t('nav.learners')}</NavLink>
      <NavLink to={paths.adminPlans()}>{t('nav.plans')}</NavLink>
      <NavLink to={paths.adminPayments()}>{t('nav.payments')}</NavLink>
      <NavLink to={paths.adminAudit()}>{t('nav.audit')}</NavLink>
    </nav>
  )
}
