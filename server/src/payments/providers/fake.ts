import { randomBytes } from 'node:crypto'
import type { Database } from '../../db/database'
import type { Clock } from '../../lib/clock'
import { findFakeTransaction, insertFakeTransaction } from '../fake-gateway.repository'
import type { PaymentProviderAdapter, Verification } from './provider'

// Verified exactly as the real adapters ask their provider, so the return and completion paths are the real ones.
export function createFakeAdapter({ database, clock }: { database: Database; clock: Clock }): PaymentProviderAdapter {
  return {
    async start(payment) {
      const ref = randomBytes(16).toString('hex')
      await insertFakeTransaction(database.db, {
        ref,
        amount_paisa: payment.amount_paisa,
        status: 'Initiated',
        created_at: clock.now(),
      })
      return {
        providerRef: ref,
        redirect: { method: 'GET', url: `/api/payments/fake/checkout/?ref=${ref}`, fields: {} },
      }
    },

    async verify(payment): Promise<Verification> {
      if (!payment.provider_ref) return { kind: 'failed', reason: 'initiate_failed' }
      const transaction = await findFakeTransaction(database.db, payment.provider_ref)
      if (!transaction) return { kind: 'failed', reason: 'not_found' }
      if (transaction.status === 'User canceled') return { kind: 'failed', reason: 'canceled' }
      if (transaction.status === 'Initiated') return { kind: 'pending' }
      if (transaction.amount_paisa !== payment.amount_paisa)
        return { kind: 'failed', reason: 'mismatch', warning: 'fake gateway amount differs' }
      return { kind: 'completed', transactionId: transaction.ref }
    },
  }
}
