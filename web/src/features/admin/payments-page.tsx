import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import './admin.i18n'
import { Alert } from '../../components/ui/alert'
import { Loading } from '../../components/ui/loading'
import { useBilingual } from '../../i18n/use-bilingual'
import { formatDateTime } from '../../lib/format'
import { formatNumber } from '../../lib/format'
import { formatRupees } from '../../lib/money'
import { adminPlanQueries, type PaymentStatus } from './admin.api'
import { AdminNav } from './admin-nav'
import './admin.css'
import { Pager } from '../../components/ui/pager'

const STATUSES: PaymentStatus[] = ['pending', 'completed', 'failed']

/** /admin/payments: every payment, newest first, with its learner and plan; filter by status, 50 a page. */
export function Component() {
  const { t, i18n } = useTranslation('admin')
  const pick = useBilingual()
  const [status, setStatus] = useState<PaymentStatus | null>(null)
  const [page, setPage] = useState(1)
  const payments = useQuery({ ...adminPlanQueries.payments(status, page), placeholderData: (previous) => previous })
  const pages = payments.data ? Math.max(1, Math.ceil(payments.data.count / payments.data.page_size)) : 1
  const n = (value: number) => formatNumber(value, i18n.language, { useGrouping: false })

  return (
    <div className="admin">
      <AdminNav />
      <h1>{t('payments.title')}</h1>
      <div className="field admin-filter">
        <label htmlFor="payment-status">{t('payments.filter')}</label>
        <select
          id="payment-status"
          value={status ?? ''}
          onChange={(event) => {
            setStatus((event.target.value || null) as PaymentStatus | null)
            setPage(1)
          }}
        >
          <option value="">{t('payments.all')}</option>
          {STATUSES.map((value) => (
            <option key={value} value={value}>
              {t(`payments.status.${value}`)}
            </option>
          ))}
        </select>
      </div>
      {payments.isPending ? (
        <Loading label={t('payments.loading')} />
      ) : payments.isError ? (
        <Alert kind="error">{t('payments.load_failed')}</Alert>
      ) : payments.data.results.length === 0 ? (
        <p className="card admin-empty">{t('payments.empty')}</p>
      ) : (
        <>
          <p className="muted">{t('payments.total', { count: payments.data.count })}</p>
          <div className="admin-table-wrap">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('payments.number')}</th>
                  <th scope="col">{t('payments.learner')}</th>
                  <th scope="col">{t('payments.plan')}</th>
                  <th scope="col">{t('payments.amount')}</th>
                  <th scope="col">{t('payments.provider')}</th>
                  <th scope="col">{t('payments.state')}</th>
                  <th scope="col">{t('payments.started')}</th>
                  <th scope="col">{t('payments.reference')}</th>
                </tr>
              </thead>
              <tbody>
                {payments.data.results.map((payment) => (
                  <tr key={payment.payment_id}>
                    <td>{n(payment.payment_id)}</td>
                    <td>{payment.learner.username}</td>
                    <td>{pick(payment.plan.name)}</td>
                    <td>{formatRupees(payment.amount_paisa, i18n.language)}</td>
                    <td>{payment.provider}</td>
                    <td>
                      {t(`payments.status.${payment.status}`)}
                      {payment.failure_reason && <span className="muted"> ({payment.failure_reason})</span>}
                    </td>
                    <td>{formatDateTime(payment.created_at, i18n.language)}</td>
                    <td className="admin-code">{payment.provider_ref ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            page={page}
            pages={pages}
            onPage={setPage}
            previous={t('payments.previous')}
            next={t('payments.next')}
            label={t('payments.page', { page: n(page), pages: n(pages) })}
          />
        </>
      )}
    </div>
  )
}
