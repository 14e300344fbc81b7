import { sql, type Kysely, type Selectable, type Updateable } from 'kysely'
import type { Dialect } from '../db/database'
import type { DB, DeliveryTable } from '../db/schema'

export type DeliveryRow = Selectable<DeliveryTable>

/**
 * Claims up to `limit` due rows for `worker` until `until`, in one statement. On PostgreSQL the rows are picked
 * `FOR UPDATE SKIP LOCKED`: processes claiming at once each take other rows and never wait on each other. On SQLite
 * the statement runs under the one write lock, so two claims are one after the other and the second no longer sees
 * what the first took. A claim that outlives its process (a crash) expires at `until`, and the row is due again.
 */
export async function claimDueDeliveries(
  db: Kysely<DB>,
  dialect: Dialect,
  { worker, now, until, limit }: { worker: string; now: number; until: number; limit: number },
): Promise<DeliveryRow[]> {
  let due = db
    .selectFrom('deliveries')
    .select('id')
    // A literal, so PostgreSQL sees the partial index's predicate (deliveries_due) in the query.
    .where('status', '=', sql.lit('pending'))
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
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
    .select(['id', 'endpoint', 'p256dh', 'auth'])
    .where('id', 'in', ids)
    .execute()
}

export async function phoneNumbersByUserIds(db: Kysely<DB>, ids: number[]) {
  if (ids.length === 0) return []
  return db.selectFrom('users').select(['id', 'phone_number']).where('id', 'in', ids).execute()
}

/**
 * Ends this worker's claim on rows it tried once more, with the outcome's fields. Only rows this worker still holds:
 * a claim that expired and was taken over is the other worker's to finish.
 */
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

/** The push service says the browser dropped it: the subscription goes, and its queued pushes with it (cascade). */
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
