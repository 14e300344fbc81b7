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
  return (
    db
      .selectFrom('payments as p')
      .innerJoin('plans', 'plans.id', 'p.plan_id')
      // The payer's access at the payment's institute, where it was credited (docs/decisions/103).
      .leftJoin('memberships as m', (join) =>
        join
          .onRef('m.user_id', '=', 'p.user_id')
          .on(sql<boolean>`${sql.ref('m.institute_id')} = ${sql.ref('p.institute_id')}`),
      )
      .selectAll('p')
      .select(['plans.name_en', 'plans.name_ne', 'm.paid_access_until'])
      .select(sql<number>`${sql.ref('p.institute_id')}`.as('institute_id'))
      .where('p.id', '=', id)
      .executeTakeFirst()
  )
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

// One statement, so two payments completing together both count. An end with no limit stays without one. Access is
// the membership's of the payment's institute (docs/decisions/103); a payer whose membership there was ended while
// the payment waited gets it back as an ended one (no role): the money is credited, and no sign-in is given.
export async function extendPaidAccess(
  db: Kysely<DB>,
  { userId, instituteId }: { userId: number; instituteId: number },
  days: number,
  now: number,
) {
  const length = days * DAY
  await db
    .insertInto('memberships')
    .values({
      user_id: userId,
      institute_id: instituteId,
      is_learner: 0,
      is_admin: 0,
      is_marker: 0,
      paid_access_until: now + length,
      created_at: now,
    })
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'institute_id']).doUpdateSet({
        paid_access_until: sql<number>`case
          when memberships.paid_access_until >= ${PAID_ACCESS_NO_END} then memberships.paid_access_until
          when memberships.paid_access_until > ${now} then memberships.paid_access_until + ${length}
          else ${now + length} end`,
      }),
    )
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
