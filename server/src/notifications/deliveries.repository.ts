import { sql, type Kysely, type Selectable, type Updateable } from 'kysely'
import type { Dialect } from '../db/database'
import type { DB, DeliveryTable } from '../db/schema'

export type DeliveryRow = Selectable<DeliveryTable>

/** When a row stops being worth sending: its TTL's end (a row without one counts as lasting 28 days). */
const expiryOf = (alias: string) =>
  // bigint: a 28-day TTL in milliseconds overflows PostgreSQL's integer.
  sql<number>`coalesce(${sql.ref(`${alias}.created_at`)} + cast(${sql.ref(`${alias}.ttl_seconds`)} as bigint) * 1000, ${sql.ref(
    `${alias}.created_at`,
  )} + ${28 * 24 * 3_600_000})`

/** Rows a claim considers for each row it may take: room for other processes claiming the same moment. */
const CANDIDATES_PER_SLOT = 4
/** Pending rows a claim reads, earliest expiry first, for each candidate: a learner's later rows among them too. */
const ROWS_PER_CANDIDATE = 4

// One per learner, none with one in flight (decision 042), each row once (035); two linear statements: decision 084.
export async function claimDueDeliveries(
  db: Kysely<DB>,
  dialect: Dialect,
  { worker, now, until, limit }: { worker: string; now: number; until: number; limit: number },
): Promise<DeliveryRow[]> {
  const claimable = (alias: string) =>
    sql<boolean>`${sql.ref(`${alias}.status`)} = 'pending' and ${sql.ref(`${alias}.next_attempt_at`)} <= ${now}
      and (${sql.ref(`${alias}.claimed_until`)} is null or ${sql.ref(`${alias}.claimed_until`)} < ${now})`
  const earliest = db
    .selectFrom('deliveries as d')
    .select(['d.id', 'd.user_id', expiryOf('d').as('expiry')])
    // A literal, so PostgreSQL sees the partial index's predicate (deliveries_due) in the query.
    .where('d.status', '=', sql.lit('pending'))
    .where(claimable('d'))
    .where(
      'd.user_id',
      'not in',
      db
        .selectFrom('deliveries as busy')
        .select('busy.user_id')
        .where('busy.status', '=', sql.lit('pending'))
        .where('busy.claimed_until', '>=', now),
    )
    .orderBy(expiryOf('d'))
    .orderBy('d.id')
    .limit(limit * CANDIDATES_PER_SLOT * ROWS_PER_CANDIDATE)
  const firsts = db
    .selectFrom(earliest.as('e'))
    .select([
      'e.id',
      'e.expiry',
      sql<number>`row_number() over (partition by ${sql.ref('e.user_id')} order by ${sql.ref('e.expiry')}, ${sql.ref('e.id')})`.as(
        'place',
      ),
    ])
  const candidates = await db
    .selectFrom(firsts.as('f'))
    .select('f.id')
    .where('f.place', '=', 1)
    .orderBy('f.expiry')
    .orderBy('f.id')
    .limit(limit * CANDIDATES_PER_SLOT)
    .execute()
  if (candidates.length === 0) return []
  // Checked again where the lock is taken: a row another process claimed meanwhile is passed over.
  let due = db
    .selectFrom('deliveries as d')
    .select('d.id')
    .where(
      'd.id',
      'in',
      candidates.map((candidate) => candidate.id),
    )
    .where(claimable('d'))
    .orderBy(expiryOf('d'))
    .orderBy('d.id')
    .limit(limit)
  if (dialect === 'postgres') due = due.forUpdate().skipLocked()
  return db
    .updateTable('deliveries')
    .set({ claimed_by: worker, claimed_until: until })
    .where('id', 'in', due)
    .returningAll()
    .execute()
}

export async function subscriptionsByIds(db: Kysely<DB>, ids: number[]) {
  if (ids.length === 0) return []
  return db
    .selectFrom('push_subscriptions')
    .select(['id', 'endpoint', 'p256dh', 'auth', 'timeouts'])
    .where('id', 'in', ids)
    .execute()
}

export async function phoneNumbersByUserIds(db: Kysely<DB>, ids: number[]) {
  if (ids.length === 0) return []
  return db.selectFrom('users').select(['id', 'phone_number']).where('id', 'in', ids).execute()
}

// Only rows this worker still holds: a claim that expired and was taken over is the other worker's to finish.
async function endClaim(db: Kysely<DB>, worker: string, ids: number[], outcome: Updateable<DeliveryTable>) {
  if (ids.length === 0) return
  await db
    .updateTable('deliveries')
    .set((eb) => ({ ...outcome, attempts: eb('attempts', '+', 1), claimed_by: null, claimed_until: null }))
    .where('id', 'in', ids)
    .where('claimed_by', '=', worker)
    .execute()
}

export const markDelivered = (db: Kysely<DB>, worker: string, ids: number[], now: number) =>
  endClaim(db, worker, ids, { status: 'done', finished_at: now, last_error: null })

export const scheduleRetry = (
  db: Kysely<DB>,
  worker: string,
  id: number,
  { at, error }: { at: number; error: string },
) => endClaim(db, worker, [id], { next_attempt_at: at, last_error: error })

export const markFailed = (
  db: Kysely<DB>,
  worker: string,
  id: number,
  { now, error }: { now: number; error: string },
) => endClaim(db, worker, [id], { status: 'failed', finished_at: now, last_error: error })

export async function deleteSubscriptionById(db: Kysely<DB>, id: number) {
  await db.deleteFrom('push_subscriptions').where('id', '=', id).execute()
}

/** Sent rows are kept a day and given-up ones a month (to see why), then removed. */
export async function pruneFinished(
  db: Kysely<DB>,
  { doneBefore, failedBefore }: { doneBefore: number; failedBefore: number },
) {
  await db
    .deleteFrom('deliveries')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'done'), eb('finished_at', '<', doneBefore)]),
        eb.and([eb('status', '=', 'failed'), eb('finished_at', '<', failedBefore)]),
      ]),
    )
    .execute()
}

// Returns the timeouts in a row: a push service that accepts connections and never answers gets dropped.
export async function countTimeout(db: Kysely<DB>, subscriptionId: number): Promise<number> {
  const row = await db
    .updateTable('push_subscriptions')
    .set((eb) => ({ timeouts: eb('timeouts', '+', 1) }))
    .where('id', '=', subscriptionId)
    .returning('timeouts')
    .executeTakeFirst()
  return row?.timeouts ?? 0
}

export async function clearTimeouts(db: Kysely<DB>, subscriptionIds: number[]) {
  if (subscriptionIds.length === 0) return
  await db
    .updateTable('push_subscriptions')
    .set({ timeouts: 0 })
    .where('id', 'in', subscriptionIds)
    .where('timeouts', '>', 0)
    .execute()
}

// The subscription's other queued pushes, unless another process holds one now.
export async function postponeSubscription(
  db: Kysely<DB>,
  subscriptionId: number,
  { now, until }: { now: number; until: number },
) {
  await db
    .updateTable('deliveries')
    .set({ next_attempt_at: until })
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<', until)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .execute()
}
