import http from 'node:http'
import https from 'node:https'
import webpush from 'web-push'
import type { Config } from '../config'
import { guardedLookup } from './push-endpoint'

export interface PushTarget {
  endpoint: string
  p256dh: string
  auth: string
}

// `gone`: 404 or 410, the browser dropped the subscription; `failed`: refused for good (a bad key, too large).
export type PushOutcome =
  | { kind: 'sent' }
  | { kind: 'gone'; status: number }
  | { kind: 'retry'; error: string; retryAfterMs?: number; timedOut?: boolean }
  | { kind: 'failed'; error: string }

const ANSWER_LIMIT = 1024

// web-push builds the message (RFC 8291, 8292); sent here: time-bounded, private addresses refused per connection.
export function createPushSender(push: Config['push']) {
  const vapid = push.vapid
  return {
    async send(target: PushTarget, payload: string, ttlSeconds: number): Promise<PushOutcome> {
      if (!vapid) return { kind: 'failed', error: 'web push is off' }
      // Subscriptions saved before the port was pinned (docs/decisions/042) are refused here too.
      const port = new URL(target.endpoint).port
      if (push.refusePrivate && port !== '' && port !== '443')
        return { kind: 'failed', error: `push endpoint port ${port} refused: only 443` }
      let details: ReturnType<typeof webpush.generateRequestDetails>
      try {
        details = webpush.generateRequestDetails(
          { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
          payload,
          {
            vapidDetails: { subject: vapid.subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
            TTL: ttlSeconds,
            contentEncoding: 'aes128gcm',
          },
        )
      } catch (error) {
        // A subscription whose keys cannot encrypt (the route checked them, so only a bad row): never deliverable.
        return { kind: 'failed', error: `could not build the push: ${(error as Error).message}` }
      }
      try {
        const answer = await request(details, push)
        if (answer.status >= 200 && answer.status < 300) return { kind: 'sent' }
        if (answer.status === 404 || answer.status === 410) return { kind: 'gone', status: answer.status }
        const error = `push service answered ${answer.status}${answer.body ? `: ${answer.body}` : ''}`
        if (answer.status === 408 || answer.status === 429 || answer.status >= 500)
          return { kind: 'retry', error, retryAfterMs: retryAfterMs(answer.retryAfter) }
        return { kind: 'failed', error }
      } catch (error) {
        return {
          kind: 'retry',
          error: `push service not reached: ${(error as Error).message}`,
          timedOut: timedOut(error),
        }
      }
    },
  }
}

export type PushSender = ReturnType<typeof createPushSender>

function request(
  details: ReturnType<typeof webpush.generateRequestDetails>,
  push: Config['push'],
): Promise<{ status: number; body: string; retryAfter?: string }> {
  const url = new URL(details.endpoint)
  const client = url.protocol === 'http:' ? http : https
  return new Promise((resolve, reject) => {
    const outgoing = client.request(
      url,
      {
        method: details.method,
        headers: details.headers as http.OutgoingHttpHeaders,
        // The whole exchange, connection included: a push service that hangs holds no sender longer than this.
        signal: AbortSignal.timeout(push.timeoutMs),
        ...(push.refusePrivate && { lookup: guardedLookup }),
      },
      (answer) => {
        let body = ''
        answer.setEncoding('utf8')
        answer.on('data', (chunk: string) => {
          if (body.length < ANSWER_LIMIT) body += chunk
        })
        answer.on('end', () =>
          resolve({
            status: answer.statusCode ?? 0,
            body: body.slice(0, ANSWER_LIMIT).trim(),
            retryAfter: answer.headers['retry-after'],
          }),
        )
        answer.on('error', reject)
      },
    )
    outgoing.on('error', reject)
    outgoing.end(details.body ?? undefined)
  })
}

function retryAfterMs(value: string | undefined): number | undefined {
  if (!value) return undefined
  const ms = /^\d+$/.test(value.trim()) ? Number(value) * 1000 : Date.parse(value) - Date.now()
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 86_400_000) : undefined
}

function timedOut(error: unknown) {
  const { name, cause } = error as { name?: string; cause?: { name?: string } }
  return name === 'TimeoutError' || cause?.name === 'TimeoutError'
}
