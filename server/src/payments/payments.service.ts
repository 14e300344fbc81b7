import type {
  AdminPaymentPage,
  CreatePaymentBody,
  Payment,
  PaymentFailure,
  PaymentProvider,
  PaymentStart,
  PaymentStatus,
} from '@quiz/contracts'
import type { FastifyBaseLogger } from 'fastify'
import type { TokenUser } from '../http/tokens'
import type { AppContext } from '../context'
import { toIso, toIsoOrNull } from '../lib/clock'
import { NotFound, ServiceUnavailable, ValidationFailed } from '../http/errors'
import { findPlanById } from '../plans/plans.service'
import { decideFakeTransaction, findFakeTransaction } from './fake-gateway.repository'
import { createPaymentVerifier } from './payment-verification'
import {
  countPayments,
  findPaymentById,
  findPaymentIdByProviderRef,
  insertPayment,
  listPayments,
  markPaymentFailed,
  setProviderRef,
  type PaymentWithPlan,
} from './payments.repository'
import { createEsewaAdapter, verifyEsewaReturn } from './providers/esewa'
import { createFakeAdapter } from './providers/fake'
import { createKhaltiAdapter } from './providers/khalti'
import { ProviderUnreachable, type PaymentProviderAdapter } from './providers/provider'

export const ADMIN_PAGE_SIZE = 50

export function createPaymentAdapters({ config, database, clock }: Pick<AppContext, 'config' | 'database' | 'clock'>) {
  const { payments } = config
  const adapters: Partial<Record<PaymentProvider, PaymentProviderAdapter>> = {}
  for (const name of payments.providers) {
    adapters[name] =
      name === 'khalti'
        ? createKhaltiAdapter({ ...payments.khalti, publicUrl: payments.publicUrl, timeoutMs: payments.timeoutMs })
        : name === 'esewa'
          ? createEsewaAdapter({ ...payments.esewa, publicUrl: payments.publicUrl, timeoutMs: payments.timeoutMs })
          : createFakeAdapter({ database, clock })
  }
  return adapters
}

function toPaymentDto(row: PaymentWithPlan): Payment {
  return {
    payment_id: row.id,
    provider: row.provider,
    plan_id: row.plan_id,
    plan_name: { en: row.name_en, ne: row.name_ne },
    amount_paisa: row.amount_paisa,
    days: row.days,
    status: row.status,
    failure_reason: row.failure_reason as PaymentFailure | null,
    paid_access_until: toIsoOrNull(row.paid_access_until),
    created_at: toIso(row.created_at),
    completed_at: toIsoOrNull(row.completed_at),
  }
}

export function createPaymentService(
  context: Pick<AppContext, 'config' | 'database' | 'clock'> & {
    log: FastifyBaseLogger
    adapters?: Partial<Record<PaymentProvider, PaymentProviderAdapter>>
  },
) {
  const { database, clock, log } = context
  const { db } = database
  const adapters = context.adapters ?? createPaymentAdapters(context)

  const { load, verify } = createPaymentVerifier({ database, clock, log, adapters })

  return {
    providers: () => context.config.payments.providers,

    async startPayment(user: TokenUser, body: CreatePaymentBody): Promise<PaymentStart> {
      const adapter = adapters[body.provider]
      if (!adapter) throw new ValidationFailed({ provider: ['This payment method is not available.'] })
      const plan = await findPlanById(db, body.plan_id)
      if (!plan || plan.active !== 1) throw new ValidationFailed({ plan_id: ['This plan is not available.'] })
      const now = clock.now()
      const payment = await database.transaction((trx) =>
        insertPayment(trx, {
          user_id: user.id,
          plan_id: plan.id,
          provider: body.provider,
          amount_paisa: plan.price_paisa,
          days: plan.days,
          status: 'pending',
          created_at: now,
          updated_at: now,
        }),
      )
      try {
        const started = await adapter.start({
          id: payment.id,
          amount_paisa: payment.amount_paisa,
          provider_ref: null,
          created_at: now,
          plan_name: plan.name_en,
        })
        await database.transaction((trx) => setProviderRef(trx, payment.id, started.providerRef, clock.now()))
        return {
          payment_id: payment.id,
          provider: body.provider,
          amount_paisa: payment.amount_paisa,
          status: 'pending',
          redirect: started.redirect,
        }
      } catch (error) {
        if (!(error instanceof ProviderUnreachable)) throw error
        log.warn({ paymentId: payment.id, provider: body.provider, detail: error.message }, 'payment could not start')
        await database.transaction((trx) => markPaymentFailed(trx, payment.id, 'initiate_failed', clock.now()))
        throw new ServiceUnavailable('The payment provider could not be reached. Please try again.')
      }
    },

    async getPayment(user: TokenUser, id: number): Promise<Payment> {
      const row = await findPaymentById(db, id)
      if (!row || row.user_id !== user.id) throw new NotFound('Payment not found.')
      return toPaymentDto(await verify(row))
    },

    // The query's own status and amount are ignored: anyone can forge them.
    async khaltiReturned(pidx: string | undefined): Promise<number | undefined> {
      if (!pidx) return undefined
      const id = await findPaymentIdByProviderRef(db, 'khalti', pidx)
      if (id !== undefined) await verify(await load(id))
      return id
    },

    // A `data` whose signature does not verify changes nothing; only the status check API's answer settles the payment.
    async esewaSucceeded(id: number, data: string | undefined): Promise<number | undefined> {
      const row = await findPaymentById(db, id)
      if (!row || row.provider !== 'esewa') return undefined
      const signed = data ? verifyEsewaReturn(context.config.payments.esewa.secretKey, data) : undefined
      if (!signed) {
        log.warn({ paymentId: id }, 'eSewa return with a missing or bad signature: ignored')
        return id
      }
      if (signed.transaction_uuid !== row.provider_ref) {
        log.warn(
          { paymentId: id, transactionUuid: signed.transaction_uuid },
          'eSewa return names another transaction: ignored',
        )
        return id
      }
      await verify(row)
      return id
    },

    async esewaFailed(id: number): Promise<number | undefined> {
      const row = await findPaymentById(db, id)
      if (!row || row.provider !== 'esewa') return undefined
      await verify(row)
      return id
    },

    async openFakeTransaction(ref: string) {
      const transaction = await findFakeTransaction(db, ref)
      return transaction?.status === 'Initiated' ? transaction : undefined
    },

    async decideFakeCheckout(ref: string, decision: 'pay' | 'cancel') {
      await database.transaction((trx) =>
        decideFakeTransaction(trx, ref, decision === 'pay' ? 'Completed' : 'User canceled'),
      )
    },

    async fakeReturned(ref: string | undefined): Promise<number | undefined> {
      if (!ref) return undefined
      const id = await findPaymentIdByProviderRef(db, 'fake', ref)
      if (id !== undefined) await verify(await load(id))
      return id
    },

    async listForAdmin(status: PaymentStatus | undefined, page: number): Promise<AdminPaymentPage> {
      const [count, rows] = await Promise.all([
        countPayments(db, status),
        listPayments(db, { status, limit: ADMIN_PAGE_SIZE, offset: (page - 1) * ADMIN_PAGE_SIZE }),
      ])
      return {
        count,
        page,
        page_size: ADMIN_PAGE_SIZE,
        results: rows.map((row) => ({
          payment_id: row.id,
          provider: row.provider,
          status: row.status,
          failure_reason: row.failure_reason as PaymentFailure | null,
          amount_paisa: row.amount_paisa,
          days: row.days,
          plan: { id: row.plan_id, name: { en: row.name_en, ne: row.name_ne } },
          learner: { id: row.user_id, username: row.username },
          provider_ref: row.provider_ref,
          created_at: toIso(row.created_at),
          completed_at: toIsoOrNull(row.completed_at),
        })),
      }
    },
  }
}
export type PaymentService = ReturnType<typeof createPaymentService>
