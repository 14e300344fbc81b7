import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { paths } from '../../../lib/paths'
import { QuizDetailsForm } from './quiz-details-form'
import '../admin.css'
import '../admin.i18n'

/** /admin/quiz/create: a new quiz from its details alone, made as a draft (docs/decisions/048). */
export function Component() {
  const { t } = useTranslation('admin')
  return (
    <div className="admin">
      <p className="admin-back">
        <Link to={paths.admin()}>{t('common.back_to_dashboard')}</Link>
      </p>
      <h1>{t('new.title')}</h1>
      <p>{t('new.intro')}</p>
      <QuizDetailsForm quiz={null} />
    </div>
  )
}
