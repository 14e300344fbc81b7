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
import type { MerchantKeys } from '../institutes/settings.service'

export const ADMIN_PAGE_SIZE = 50

export type PaymentAdapters = Partial<Record<PaymentProvider, PaymentProviderAdapter>>
export type MerchantKeysOf = (institute: number) => Promise<MerchantKeys & { unreadable: readonly string[] }>

/**
 * Where a payment is made (docs/decisions/099): the institute of the request's host, whose keys start and verify it
 * and whose rows hold it, and the address the provider sends the learner back to (that same host).
 */
export interface PaymentPlace {
  institute: number
  publicUrl: string
}

/** An institute's providers with its own merchant keys; the fake one (development) for every institute. */
export function createPaymentAdapters({
  config,
  database,
  clock,
  log,
  merchantKeys,
}: Pick<AppContext, 'config' | 'database' | 'clock'> & { log: FastifyBaseLogger; merchantKeys: MerchantKeysOf }) {
  const { payments } = config
  const fake = createFakeAdapter({ database, clock })
  return async function adaptersFor(institute: number, publicUrl = payments.publicUrl): Promise<PaymentAdapters> {
    const adapters: PaymentAdapters = {}
    if (payments.providers.includes('fake')) adapters.fake = fake
    const keys = await merchantKeys(institute)
    if (keys.unreadable.length > 0)
      log.error(
        { institute, providers: keys.unreadable },
        'payment keys sealed under another JWT_SECRET: the institute must enter them again',
      )
    const { timeoutMs } = payments
    if (keys.khalti)
      adapters.khalti = createKhaltiAdapter({
        ...payments.khalti,
        secretKey: keys.khalti.secretKey,
        publicUrl,
        timeoutMs,
      })
    if (keys.esewa) adapters.esewa = createEsewaAdapter({ ...payments.esewa, ...keys.esewa, publicUrl, timeoutMs })
    return adapters
  }
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
  context: Pick<AppContext, 'config' | 'database' | 'clock'> & { log: FastifyBaseLogger; merchantKeys: MerchantKeysOf },
) {
  const { database, clock, log, merchantKeys } = context
  const { db } = database
  const adaptersFor = createPaymentAdapters(context)

  const { load, verify } = createPaymentVerifier({ database, clock, log, adaptersFor })

  return {
    /** The providers a learner of this institute can pay with: those of PAYMENT_PROVIDERS it has keys for. */
    async providers(institute: number): Promise<PaymentProvider[]> {
      const adapters = await adaptersFor(institute)
      return context.config.payments.providers.filter((provider) => adapters[provider] !== undefined)
    },

    // No keys for the provider on this institute is the refusal of a provider that is not configured.
    async startPayment(user: TokenUser, body: CreatePaymentBody, place: PaymentPlace): Promise<PaymentStart> {
      const adapter = (await adaptersFor(place.institute, place.publicUrl))[body.provider]
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

    // Another institute's payment is not found: the request's queries hold only its institute's rows.
    async getPayment(user: TokenUser, id: number, institute: number): Promise<Payment> {
      const row = await findPaymentById(db, id)
      if (!row || row.user_id !== user.id) throw new NotFound('Payment not found.')
      return toPaymentDto(await verify(row, institute))
    },

    // The query's own status and amount are ignored: anyone can forge them.
    async khaltiReturned(pidx: string | undefined, institute: number): Promise<number | undefined> {
      if (!pidx) return undefined
      const id = await findPaymentIdByProviderRef(db, 'khalti', pidx)
      if (id !== undefined) await verify(await load(id), institute)
      return id
    },

    // A `data` whose signature does not verify changes nothing; only the status check API's answer settles the payment.
    async esewaSucceeded(id: number, data: string | undefined, institute: number): Promise<number | undefined> {
      const row = await findPaymentById(db, id)
      if (!row || row.provider !== 'esewa') return undefined
      const secretKey = (await merchantKeys(institute)).esewa?.secretKey
      const signed = data && secretKey ? verifyEsewaReturn(secretKey, data) : undefined
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
      await verify(row, institute)
      return id
    },

    async esewaFailed(id: number, institute: number): Promise<number | undefined> {
      const row = await findPaymentById(db, id)
      if (!row || row.provider !== 'esewa') return undefined
      await verify(row, institute)
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

    async fakeReturned(ref: string | undefined, institute: number): Promise<number | undefined> {
      if (!ref) return undefined
      const id = await findPaymentIdByProviderRef(db, 'fake', ref)
      if (id !== undefined) await verify(await load(id), institute)
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
