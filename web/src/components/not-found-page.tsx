import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { paths } from '../lib/paths'
import { buttonClass } from './ui/button'

export function Component() {
  const { t } = useTranslation()
  return (
    <div className="card center-card">
      <h1>{t('page_not_found')}</h1>
      <Link className={buttonClass({ variant: 'primary' })} to={paths.home()}>
        {t('go_home')}
      </Link>
    </div>
  )
}
