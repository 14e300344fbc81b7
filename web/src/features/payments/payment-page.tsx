import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import './payments.i18n'
import { Link } from 'react-router'
import { ApiError } from '../../api/api-error'
import { Alert } from '../../components/ui/alert'
import { Loading } from '../../components/ui/loading'
import { useBilingual } from '../../i18n/use-bilingual'
import { formatDateTime } from '../../lib/format'
import { formatNumber } from '../../lib/format'
import { formatRupees } from '../../lib/money'
import { paths } from '../../lib/paths'
import { useRouteId } from '../../lib/route-id'
import { paymentQueries } from './payments.api'
import './payments.css'
import { buttonClass } from '../../components/ui/button'

/** API.md's "no end" is a far-future end (NO_END_ISO in the contracts, not imported: it would bring zod along). */
const hasNoEnd = (iso: string) => iso.startsWith('9999-')

/** /payments/{id}: where the providers send the learner back. Pending polls by itself; completed and failed say so. */
export function Component() {
  const { t, i18n } = useTranslation('payments')
  const pick = useBilingual()
  const routeId = useRouteId('paymentId')
  const valid = routeId !== null
  const id = routeId ?? 0
  const payment = useQuery({ ...paymentQueries.payment(id), enabled: valid })
  const queryClient = useQueryClient()
  const status = payment.data?.status

  // Paid access changes which quizzes can start: no cached screen (the quiz list, owned by another feature)
  // may go on saying otherwise, so everything cached is refetched when next shown.
  useEffect(() => {
    if (status === 'completed') void queryClient.invalidateQueries()
  }, [status, queryClient])

  if (!valid || (payment.isError && payment.error instanceof ApiError && payment.error.status === 404))
    return (
      <div className="payment">
        <h1>{t('payment.title')}</h1>
        <Alert kind="error">{t('payment.not_found')}</Alert>
      </div>
    )
  if (payment.isPending) return <Loading label={t('payment.loading')} />
  if (payment.isError)
    return (
      <div className="payment">
        <h1>{t('payment.title')}</h1>
        <Alert kind="error">{t('payment.load_failed')}</Alert>
      </div>
    )

  const p = payment.data
  const provider = t(`providers.${p.provider}`)
  return (
    <div className="payment">
      <h1>{t('payment.title')}</h1>
      <section className="card payment__card" aria-live="polite">
        <p className="muted">
          {t('payment.number', { id: formatNumber(p.payment_id, i18n.language, { useGrouping: false }) })}
        </p>
        <p>
          {t('payment.summary', {
            plan: pick(p.plan_name),
            days: formatNumber(p.days, i18n.language),
            amount: formatRupees(p.amount_paisa, i18n.language),
            provider,
          })}
        </p>
        {p.status === 'pending' && (
          <>
            <Loading label={t('payment.pending', { provider })} />
            <p className="muted">{t('payment.pending_hint')}</p>
          </>
        )}
        {p.status === 'completed' && (
          <>
            <Alert kind="success">{t('payment.completed')}</Alert>
            {p.paid_access_until && (
              <p className="payment__until">
                {hasNoEnd(p.paid_access_until)
                  ? t('payment.access_no_end')
                  : t('payment.access_until', { date: formatDateTime(p.paid_access_until, i18n.language) })}
              </p>
            )}
            <Link className={buttonClass({ variant: 'primary' })} to={paths.home()}>
              {t('payment.go_to_quizzes')}
            </Link>
          </>
        )}
        {p.status === 'failed' && (
          <>
            <Alert kind="error">
              {t('payment.failed')} {t(`payment.reasons.${p.failure_reason ?? 'unknown'}`)}
            </Alert>
            <Link className={buttonClass({ variant: 'primary' })} to={paths.plans()}>
              {t('payment.try_again')}
            </Link>
          </>
        )}
      </section>
    </div>
  )
}
