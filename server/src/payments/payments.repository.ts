import { sql, type Insertable, type Kysely } from 'kysely'
import type { DB, PaymentTable } from '../db/schema'
import { PAID_ACCESS_NO_END } from '../db/schema'

const DAY = 86_400_000

export async function insertPayment(db: Kysely<DB>, row: Insertable<PaymentTable>) {
  return db.insertInto('payments').values(row).returningAll().executeTakeFirstOrThrow()
}

export async function setProviderRef(db: Kysely<DB>, id: number, providerRef: string, now: number) {
  await db.updateTable('payments').set({ provider_ref: providerRef, updated_at: now }).where('id', '=', id).execute()
}

export async function findPaymentById(db: Kysely<DB>, id: number) {
  return db
    .selectFrom('payments as p')
    .innerJoin('plans', 'plans.id', 'p.plan_id')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .selectAll('p')
    .select(['plans.name_en', 'plans.name_ne', 'u.paid_access_until'])
    .where('p.id', '=', id)
    .executeTakeFirst()
}
export type PaymentWithPlan = NonNullable<Awaited<ReturnType<typeof findPaymentById>>>

export async function findPaymentIdByProviderRef(db: Kysely<DB>, provider: PaymentTable['provider'], ref: string) {
  const row = await db
    .selectFrom('payments')
    .select('id')
    .where('provider', '=', provider)
    .where('provider_ref', '=', ref)
    .executeTakeFirst()
  return row?.id
}

// The WHERE is the idempotency: of concurrent verifications exactly one changes the row (docs/decisions/009).
export async function markPaymentCompleted(db: Kysely<DB>, id: number, transactionId: string | null, now: number) {
  const result = await db
    .updateTable('payments')
    .set({ status: 'completed', provider_transaction_id: transactionId, completed_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst()
  return result.numUpdatedRows === 1n
}

export async function markPaymentFailed(db: Kysely<DB>, id: number, reason: string, now: number) {
  const result = await db
    .updateTable('payments')
    .set({ status: 'failed', failure_reason: reason, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst()
  return result.numUpdatedRows === 1n
}

// One statement, so two payments completing together both count. An end with no limit stays without one.
export async function extendPaidAccess(db: Kysely<DB>, userId: number, days: number, now: number) {
  const length = days * DAY
  await db
    .updateTable('users')
    .set({
      paid_access_until: sql<number>`case
        when paid_access_until >= ${PAID_ACCESS_NO_END} then paid_access_until
        when paid_access_until > ${now} then paid_access_until + ${length}
        else ${now + length} end`,
    })
    .where('id', '=', userId)
    .execute()
}

export async function countPayments(db: Kysely<DB>, status: PaymentTable['status'] | undefined) {
  let query = db.selectFrom('payments').select((eb) => eb.fn.countAll<number>().as('n'))
  if (status) query = query.where('status', '=', status)
  return Number((await query.executeTakeFirstOrThrow()).n)
}

export async function listPayments(
  db: Kysely<DB>,
  { status, limit, offset }: { status: PaymentTable['status'] | undefined; limit: number; offset: number },
) {
  let query = db
    .selectFrom('payments as p')
    .innerJoin('plans', 'plans.id', 'p.plan_id')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .selectAll('p')
    .select(['plans.name_en', 'plans.name_ne', 'u.username'])
  if (status) query = query.where('p.status', '=', status)
  return query.orderBy('p.id', 'desc').limit(limit).offset(offset).execute()
}
