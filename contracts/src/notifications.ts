// Notifications and web push (API.md "Notifications", docs/decisions/035).
import { z } from 'zod'
import { BilingualSchema, IsoDateTimeSchema } from './common'
import { PageQuerySchema } from './institutions'

export const NotificationKindSchema = z.enum([
  'flag_decided',
  'score_changed',
  'live_reminder',
  'live_results',
  'payment_completed',
  'paper_result',
  'written_marked',
  'regrade_decided',
  'daily_reminder',
])
export type NotificationKind = z.infer<typeof NotificationKindSchema>

export const notificationLimits = {
  /** Notifications per page of `GET /api/notifications/`. */
  pageSize: 20,
  /** Ids one `POST /api/notifications/read/` may name. */
  readIds: 500,
  /** A push endpoint URL; real ones are under 1,000 characters. */
  endpointLength: 2048,
} as const

export const notificationMessages = {
  readIdsOrAll: 'Send either "ids" (a list of notification ids) or "all": true.',
  endpointUrl: 'The push endpoint must be an https URL.',
  endpointInsecure: 'The push endpoint must use https.',
  endpointPrivate: 'The push endpoint may not be at a private or local address.',
  endpointPort: 'The push endpoint must use the https port, 443.',
  endpointUnknownHost: 'The push endpoint names a host that does not resolve.',
  p256dh: 'p256dh must be the base64url of a 65-byte uncompressed P-256 public key.',
  auth: 'auth must be the base64url of a 16-byte secret.',
  endpointTaken: "This push endpoint is another account's browser; subscribe from that browser with its own keys.",
} as const

export const NotificationsQuerySchema = z.object({ page: PageQuerySchema })
export type NotificationsQuery = z.input<typeof NotificationsQuerySchema>

export const NotificationSchema = z.object({
  id: z.number().int(),
  kind: NotificationKindSchema,
  text: BilingualSchema,
  /** A path inside the web app (`/payments/12`, `/results/40`), or null. */
  link: z.string().nullable(),
  created_at: IsoDateTimeSchema,
  read: z.boolean(),
})
export type Notification = z.infer<typeof NotificationSchema>

export const NotificationPageSchema = z.object({
  /** The learner's unread notifications in all, not only on this page. */
  unread: z.number().int(),
  /** The learner's notifications in all: the pages are `ceil(count / page_size)`. */
  count: z.number().int(),
  page_size: z.number().int(),
  /** Newest first. */
  results: z.array(NotificationSchema),
})
export type NotificationPage = z.infer<typeof NotificationPageSchema>

/** `{ids}` or `{all: true}`; ids of another learner's notifications are ignored. */
export const MarkReadBodySchema = z.union(
  [
    z.object({ all: z.literal(true) }),
    z.object({ ids: z.array(z.number().int().positive().max(2_147_483_647)).min(1).max(notificationLimits.readIds) }),
  ],
  { error: notificationMessages.readIdsOrAll },
)
export type MarkReadBody = z.infer<typeof MarkReadBodySchema>

export const PushKeySchema = z.object({
  /** base64url (no padding) of the 65-byte uncompressed P-256 VAPID public key: `applicationServerKey`. */
  public_key: z.string(),
})
export type PushKey = z.infer<typeof PushKeySchema>

// base64url (or base64) of the browser's keys, as PushSubscription.toJSON() gives them; padding allowed.
const B64 = '[A-Za-z0-9_\\-+/]'
/** 65 bytes starting 0x04 (an uncompressed point): 87 characters, the first 'B'. */
const p256dhPattern = new RegExp(`^B${B64}{86}=?$`)
/** 16 bytes: 22 characters. */
const authPattern = new RegExp(`^${B64}{22}(==)?$`)

/** What `PushSubscription.toJSON()` gives in the browser (other fields such as `expirationTime` are ignored). */
export const PushSubscriptionBodySchema = z.object({
  endpoint: z.string().trim().min(1, notificationMessages.endpointUrl).max(notificationLimits.endpointLength),
  keys: z.object({
    p256dh: z.string({ error: notificationMessages.p256dh }).trim().regex(p256dhPattern, notificationMessages.p256dh),
    auth: z.string({ error: notificationMessages.auth }).trim().regex(authPattern, notificationMessages.auth),
  }),
})
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBodySchema>

export const PushUnsubscribeBodySchema = z.object({
  endpoint: z.string().trim().min(1, notificationMessages.endpointUrl).max(notificationLimits.endpointLength),
})
export type PushUnsubscribeBody = z.infer<typeof PushUnsubscribeBodySchema>

/**
 * The JSON body of a web push, for the web app's service worker: the notification's text in both languages and the
 * learner's chosen language (`lang`, their profile's) to show it in. Texts may be cut (with "…") to fit a push.
 */
export const PushMessageSchema = z.object({
  kind: NotificationKindSchema,
  text: BilingualSchema,
  link: z.string().nullable(),
  lang: z.enum(['en', 'ne']),
})
export type PushMessage = z.infer<typeof PushMessageSchema>
