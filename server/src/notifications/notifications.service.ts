import { createECDH } from 'node:crypto'
import type { Kysely } from 'kysely'
import {
  notificationLimits,
  notificationMessages,
  type MarkReadBody,
  type NotificationKind,
  type NotificationPage,
  type PushSubscriptionBody,
} from '@quiz/contracts'
import type { AppContext } from '../context'
import type { DB } from '../db/schema'
import { Conflict, NotFound, ValidationFailed } from '../http/errors'
import { toIso } from '../lib/clock'
import {
  countNotifications,
  deleteSubscription,
  insertNotifications,
  insertPushDeliveries,
  insertSmsDeliveries,
  listNotifications,
  markRead,
  relinkNotifications,
  upsertSubscription,
} from './notifications.repository'
import { endpointProblem } from './push-endpoint'
import { pushMessage } from './push-message'

export interface NewNotification {
  userId: number
  kind: NotificationKind
  text: { en: string; ne: string }
  link: string | null
  /** How long a push service keeps the push for an offline browser (default a day; at most 28 days). */
  push?: { ttlSeconds?: number }
  sms?: { purpose: string; text: string }
}

export const DEFAULT_PUSH_TTL_SECONDS = 24 * 60 * 60
/** What push services keep at the most (FCM: 28 days). */
export const MAX_PUSH_TTL_SECONDS = 28 * 24 * 60 * 60

// Inside the caller's transaction: committed with what they tell of, or not at all (docs/decisions/035).
export async function notify(db: Kysely<DB>, items: NewNotification[], now: number = Date.now()): Promise<void> {
  if (items.length === 0) return
  await insertNotifications(
    db,
    items.map((item) => ({ u: item.userId, k: item.kind, e: item.text.en, n: item.text.ne, l: item.link })),
    now,
  )
  await insertPushDeliveries(
    db,
    items.map((item) => {
      const message = { kind: item.kind, text: item.text, link: item.link }
      return {
        u: item.userId,
        e: pushMessage({ ...message, lang: 'en' }),
        n: pushMessage({ ...message, lang: 'ne' }),
        t: Math.min(MAX_PUSH_TTL_SECONDS, Math.max(0, Math.floor(item.push?.ttlSeconds ?? DEFAULT_PUSH_TTL_SECONDS))),
      }
    }),
    now,
  )
  await insertSmsDeliveries(
    db,
    items.flatMap((item) =>
      item.sms
        ? [
            {
              u: item.userId,
              p: JSON.stringify({ text: item.sms.text, purpose: item.sms.purpose }),
              // A message worth a push for only so long (a reminder) is not worth a text message later either.
              t: item.push?.ttlSeconds ?? null,
            },
          ]
        : [],
    ),
    now,
  )
}

/** Whether the browser's key is a point on P-256 (one that is not would fail every push's encryption). */
function isP256Point(key: Buffer) {
  try {
    const ecdh = createECDH('prime256v1')
    ecdh.generateKeys()
    ecdh.computeSecret(key)
    return true
  } catch {
    return false
  }
}

const PUSH_OFF = 'Web push is off on this server.'

export const relink = (db: Kysely<DB>, userId: number, from: string, to: string) =>
  relinkNotifications(db, userId, from, to)

export function createNotificationService({
  database,
  clock,
  config,
}: Pick<AppContext, 'database' | 'clock' | 'config'>) {
  const { db } = database
  return {
    async page(userId: number, page: number): Promise<NotificationPage> {
      const size = notificationLimits.pageSize
      const [{ count, unread }, rows] = await Promise.all([
        countNotifications(db, userId),
        listNotifications(db, userId, size, (page - 1) * size),
      ])
      return {
        unread,
        count,
        page_size: size,
        results: rows.map((row) => ({
          id: row.id,
          kind: row.kind as NotificationKind,
          text: { en: row.text_en, ne: row.text_ne },
          link: row.link,
          created_at: toIso(row.created_at),
          read: row.read_at !== null,
        })),
      }
    },

    async markRead(userId: number, body: MarkReadBody) {
      await database.transaction((trx) => markRead(trx, userId, 'all' in body ? 'all' : body.ids, clock.now()))
    },

    publicKey() {
      if (!config.push.vapid) throw new NotFound(PUSH_OFF)
      return config.push.vapid.publicKey
    },

    async subscribe(userId: number, body: PushSubscriptionBody) {
      if (!config.push.vapid) throw new NotFound(PUSH_OFF)
      const problem = await endpointProblem(body.endpoint, config.push)
      if (problem) throw new ValidationFailed({ endpoint: [problem] })
      const p256dh = Buffer.from(body.keys.p256dh, 'base64url')
      if (!isP256Point(p256dh)) throw new ValidationFailed({ 'keys.p256dh': [notificationMessages.p256dh] })
      const row = {
        user_id: userId,
        endpoint: body.endpoint,
        p256dh: p256dh.toString('base64url'),
        auth: Buffer.from(body.keys.auth, 'base64url').toString('base64url'),
        created_at: clock.now(),
      }
      if (!(await database.transaction((trx) => upsertSubscription(trx, row))))
        throw new Conflict(notificationMessages.endpointTaken)
    },

    async unsubscribe(userId: number, endpoint: string) {
      await database.transaction((trx) => deleteSubscription(trx, userId, endpoint))
    },
  }
}

export type NotificationService = ReturnType<typeof createNotificationService>
