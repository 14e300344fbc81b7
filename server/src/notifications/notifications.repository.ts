import { timingSafeEqual } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { isPostgres } from '../db/database'
import { instituteOfNewRows } from '../db/request-scope'
import type { DB } from '../db/schema'

// Rows as one JSON parameter the database unpacks: a VALUES list cost per value (10,000 learners took seconds).
export const INSERT_CHUNK = 2000

async function inChunks<T>(items: T[], insert: (json: string) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += INSERT_CHUNK) await insert(JSON.stringify(items.slice(i, i + INSERT_CHUNK)))
}

export interface NotificationJson {
  u: number
  k: string
  e: string
  n: string
  l: string | null
}

export async function insertNotifications(db: Kysely<DB>, rows: NotificationJson[], now: number) {
  await inChunks(rows, (json) =>
    isPostgres(db)
      ? sql`insert into notifications (user_id, kind, text_en, text_ne, link, created_at, institute_id)
          select u, k, e, n, l, ${now}::bigint, ${instituteOfNewRows()}::integer
          from jsonb_to_recordset(${json}::jsonb) as x(u integer, k text, e text, n text, l text)`.execute(db)
      : sql`insert into notifications (user_id, kind, text_en, text_ne, link, created_at, institute_id)
          select json_extract(value, '$.u'), json_extract(value, '$.k'), json_extract(value, '$.e'),
            json_extract(value, '$.n'), json_extract(value, '$.l'), ${now}, ${instituteOfNewRows()}
          from json_each(${json})`.execute(db),
  )
}

/** A push to queue for every subscription of learner `u`: its payload in English (`e`) and Nepali (`n`), TTL `t`. */
export interface PushJson {
  u: number
  e: string
  n: string
  t: number
}

// The subscriptions are joined in the statement (by push_subscriptions_user), so nothing is read back first.
export async function insertPushDeliveries(db: Kysely<DB>, items: PushJson[], now: number) {
  await inChunks(items, (json) =>
    isPostgres(db)
      ? sql`insert into deliveries
            (channel, user_id, subscription_id, payload, ttl_seconds, status, attempts, next_attempt_at, created_at,
            institute_id)
          select 'push', s.user_id, s.id, case when usr.preferred_language = 'ne' then x.n else x.e end, x.t,
            'pending', 0, ${now}::bigint, ${now}::bigint, ${instituteOfNewRows()}::integer
          from jsonb_to_recordset(${json}::jsonb) as x(u integer, e text, n text, t integer)
          join push_subscriptions s on s.user_id = x.u
          join users usr on usr.id = s.user_id`.execute(db)
      : sql`insert into deliveries
            (channel, user_id, subscription_id, payload, ttl_seconds, status, attempts, next_attempt_at, created_at,
            institute_id)
          select 'push', s.user_id, s.id,
            case when usr.preferred_language = 'ne' then json_extract(x.value, '$.n') else json_extract(x.value, '$.e') end,
            json_extract(x.value, '$.t'), 'pending', 0, ${now}, ${now}, ${instituteOfNewRows()}
          from json_each(${json}) x
          -- CROSS JOIN keeps SQLite from putting json_each inside: each item looks its learner up by the index.
          cross join push_subscriptions s on s.user_id = json_extract(x.value, '$.u')
          join users usr on usr.id = s.user_id`.execute(db),
  )
}

/** A text message to learner `u`: payload `p` ({text, purpose}), expiring after `t` seconds (or never: null). */
export interface SmsJson {
  u: number
  p: string
  t: number | null
}

export async function insertSmsDeliveries(db: Kysely<DB>, items: SmsJson[], now: number) {
  await inChunks(items, (json) =>
    isPostgres(db)
      ? sql`insert into deliveries
            (channel, user_id, subscription_id, payload, ttl_seconds, status, attempts, next_attempt_at, created_at,
            institute_id)
          select 'sms', x.u, null, x.p, x.t, 'pending', 0, ${now}::bigint, ${now}::bigint,
            ${instituteOfNewRows()}::integer
          from jsonb_to_recordset(${json}::jsonb) as x(u integer, p text, t integer)`.execute(db)
      : sql`insert into deliveries
            (channel, user_id, subscription_id, payload, ttl_seconds, status, attempts, next_attempt_at, created_at,
            institute_id)
          select 'sms', json_extract(value, '$.u'), null, json_extract(value, '$.p'), json_extract(value, '$.t'),
            'pending', 0, ${now}, ${now}, ${instituteOfNewRows()}
          from json_each(${json})`.execute(db),
  )
}

export async function countNotifications(db: Kysely<DB>, userId: number) {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.count<number | string>(sql`case when read_at is null then 1 end`).as('unread'),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow()
  return { count: Number(row.count), unread: Number(row.unread) }
}

export async function listNotifications(db: Kysely<DB>, userId: number, limit: number, offset: number) {
  return db
    .selectFrom('notifications')
    .select(['id', 'kind', 'text_en', 'text_ne', 'link', 'created_at', 'read_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute()
}

export async function markRead(db: Kysely<DB>, userId: number, ids: number[] | 'all', now: number) {
  let query = db
    .updateTable('notifications')
    .set({ read_at: now })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
  if (ids !== 'all') query = query.where('id', 'in', ids)
  await query.execute()
}

export async function relinkNotifications(db: Kysely<DB>, userId: number, from: string, to: string) {
  await db
    .updateTable('notifications')
    .set({ link: to })
    .where('user_id', '=', userId)
    .where('link', '=', from)
    .execute()
}

/** A learner's browsers kept at most (docs/decisions/042): a new one past this replaces the oldest. */
export const MAX_SUBSCRIPTIONS_PER_LEARNER = 10

// The endpoint is the browser's: a learner signing in on it (same keys) takes it over; knowing it alone does not.
export async function upsertSubscription(
  db: Kysely<DB>,
  row: { user_id: number; endpoint: string; p256dh: string; auth: string; created_at: number },
): Promise<boolean> {
  const held = await db
    .selectFrom('push_subscriptions')
    .select(['id', 'user_id', 'p256dh', 'auth'])
    .where('endpoint', '=', row.endpoint)
    .$if(isPostgres(db), (query) => query.forUpdate())
    .executeTakeFirst()
  if (held && held.user_id !== row.user_id) {
    if (!sameSecret(held.auth, row.auth) || held.p256dh !== row.p256dh) return false
    await db.deleteFrom('push_subscriptions').where('id', '=', held.id).execute()
  }
  await db
    .insertInto('push_subscriptions')
    .values(row)
    .onConflict((oc) =>
      oc.column('endpoint').doUpdateSet({ user_id: row.user_id, p256dh: row.p256dh, auth: row.auth, timeouts: 0 }),
    )
    .execute()
  const kept = db
    .selectFrom('push_subscriptions')
    .select('id')
    .where('user_id', '=', row.user_id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(MAX_SUBSCRIPTIONS_PER_LEARNER)
  await db
    .deleteFrom('push_subscriptions')
    .where('user_id', '=', row.user_id)
    .where('id', 'not in', (eb) => eb.selectFrom(kept.as('kept')).select('kept.id'))
    .execute()
  return true
}

/** Compares the browser's auth secret in constant time. */
function sameSecret(stored: string, given: string) {
  const a = Buffer.from(stored, 'base64url')
  const b = Buffer.from(given, 'base64url')
  return a.length === b.length && timingSafeEqual(a, b)
}

export async function deleteSubscription(db: Kysely<DB>, userId: number, endpoint: string) {
  await db.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('endpoint', '=', endpoint).execute()
}
