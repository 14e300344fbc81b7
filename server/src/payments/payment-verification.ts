import type { FastifyBaseLogger } from 'fastify'
import type { AppContext } from '../context'
import { NotFound } from '../http/errors'
import { notify } from '../notifications/notifications.service'
import { paymentCompletedNotification } from './payment-notification'
import {
  extendPaidAccess,
  findPaymentById,
  markPaymentCompleted,
  markPaymentFailed,
  type PaymentWithPlan,
} from './payments.repository'
import type { PaymentProviderAdapter, ProviderPayment } from './providers/provider'

const toProviderPayment = (row: PaymentWithPlan): ProviderPayment => ({
  id: row.id,
  amount_paisa: row.amount_paisa,
  provider_ref: row.provider_ref,
  created_at: row.created_at,
  plan_name: row.name_en,
})

export function createPaymentVerifier({
  database,
  clock,
  log,
  adaptersFor,
}: Pick<AppContext, 'database' | 'clock'> & {
  log: FastifyBaseLogger
  adaptersFor: (institute: number) => Promise<Partial<Record<string, PaymentProviderAdapter>>>
}) {
  const { db } = database

  async function load(id: number) {
    const row = await findPaymentById(db, id)
    if (!row) throw new NotFound('Payment not found.')
    return row
  }

  // With the keys of the institute the payment was made on: the request's, whose rows alone it can find.
  async function verify(row: PaymentWithPlan, institute: number): Promise<PaymentWithPlan> {
    if (row.status !== 'pending') return row
    const adapter = (await adaptersFor(institute))[row.provider]
    // A provider removed from PAYMENT_PROVIDERS or the institute's keys: its payments stay pending until it is back.
    if (!adapter) return row
    const verification = await adapter.verify(toProviderPayment(row), clock.now())
    switch (verification.kind) {
      case 'unreachable':
        log.warn(
          { paymentId: row.id, provider: row.provider, detail: verification.detail },
          'payment provider unreachable',
        )
        return row
      case 'pending':
        if (verification.warning) log.warn({ paymentId: row.id, provider: row.provider }, verification.warning)
        return row
      case 'failed':
        if (verification.warning) log.warn({ paymentId: row.id, provider: row.provider }, verification.warning)
        await database.transaction((trx) => markPaymentFailed(trx, row.id, verification.reason, clock.now()))
        return load(row.id)
      case 'completed': {
        const granted = await database.transaction(async (trx) => {
          const now = clock.now()
          if (!(await markPaymentCompleted(trx, row.id, verification.transactionId, now))) return false
          await extendPaidAccess(trx, { userId: row.user_id, instituteId: row.institute_id }, row.days, now)
          await notify(trx, [paymentCompletedNotification(row)], now)
          return true
        })
        if (granted) log.info({ paymentId: row.id, userId: row.user_id, days: row.days }, 'payment completed')
        return load(row.id)
      }
    }
  }

  return { load, verify }
}
