import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import '../admin.i18n'
import { InlineText } from '../../../components/ui/rich-text'
import { formatDateTime } from '../../../lib/format'
import { formatNumber } from '../../../lib/format'
import { formatRupees } from '../../../lib/money'
import { adminPlanQueries, type PaymentStatus } from './billing.api'
import { AdminNav } from '../admin-nav'
import '../admin.css'
import { PagedTable } from '../ui'

const STATUSES: PaymentStatus[] = ['pending', 'completed', 'failed']

/** /admin/payments: every payment, newest first, with its learner and plan; filter by status, 50 a page. */
export function Component() {
  const { t, i18n } = useTranslation('admin')
  const [status, setStatus] = useState<PaymentStatus | null>(null)
  const [page, setPage] = useState(1)
  const payments = useQuery({ ...adminPlanQueries.payments(status, page), placeholderData: (previous) => previous })
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
      <PagedTable
        label={t('payments.title')}
        query={payments}
        // The server names its page size; the table is drawn only once it has answered.
        pageSize={payments.data?.page_size ?? 1}
        page={page}
        onPage={setPage}
        text={(key, values) => t(`payments.${key}`, values)}
        columns={[
          { label: t('payments.number') },
          { label: t('payments.learner') },
          { label: t('payments.plan') },
          { label: t('payments.amount') },
          { label: t('payments.provider') },
          { label: t('payments.state') },
          { label: t('payments.started') },
          { label: t('payments.reference') },
        ]}
      >
        {(payment) => (
          <tr key={payment.payment_id}>
            <td>{n(payment.payment_id)}</td>
            <td>{payment.learner.username}</td>
            <td>
              <InlineText text={payment.plan.name} />
            </td>
            <td>{formatRupees(payment.amount_paisa, i18n.language)}</td>
            <td>{payment.provider}</td>
            <td>
              {t(`payments.status.${payment.status}`)}
              {payment.failure_reason && <span className="muted"> ({payment.failure_reason})</span>}
            </td>
            <td>{formatDateTime(payment.created_at, i18n.language)}</td>
            <td className="admin-code">{payment.provider_ref ?? ''}</td>
          </tr>
        )}
      </PagedTable>
    </div>
  )
}
