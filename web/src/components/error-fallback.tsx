import { useTranslation } from 'react-i18next'
import { isRouteErrorResponse, Link, useRouteError } from 'react-router'
import { paths } from '../lib/paths'
import { Button, buttonClass } from './ui/button'

/** The route trees' errorElement: a readable message and a way out, never a blank page. */
export function RouteError() {
  const error = useRouteError()
  const { t } = useTranslation()
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <div className="page">
      <div className="card center-card" role="alert">
        <h1>{notFound ? t('page_not_found') : t('something_went_wrong')}</h1>
        <p className="actions">
          <Link className={buttonClass({ variant: 'primary' })} to={paths.home()}>
            {t('go_home')}
          </Link>
          {!notFound && <Button onClick={() => window.location.reload()}>{t('reload')}</Button>}
        </p>
      </div>
    </div>
  )
}
