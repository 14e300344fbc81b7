import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto'
import { EventEmitter, once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach } from 'vitest'

/** A push that passed every check a real push service makes, as the browser would read it. */
export interface ReceivedPush {
  /** The subscription's name (the endpoint's last segment). */
  name: string
  ttl: number
  urgency: string | undefined
  /** The decrypted body, parsed as JSON. */
  message: unknown
  jwt: { aud: string; exp: number; sub: string }
  /** The `k=` of the Authorization header: the server's VAPID public key. */
  vapidKey: string
}

/** How the service answers one subscription's pushes: a status (201 by default), or not until release(). */
type Answer = number | 'hang'

interface Subscriber {
  ecdh: ECDH
  auth: Buffer
}

/**
 * A real HTTP server on a free local port that plays a browser's push service (RFC 8030) and the browser behind it.
 * Each push is checked as a push service does (RFC 8292: an `Authorization: vapid t=<JWT>, k=<key>` whose ES256 JWT
 * verifies with that key, for this origin, not expired; a TTL header) and then decrypted as the browser does
 * (RFC 8291 aes128gcm, with the subscription's private key made here): a push that fails any check is answered 400
 * and recorded in `refused`, one that passes in `received`.
 */
export class FakePushService {
  received: ReceivedPush[] = []
  refused: { name: string; reason: string }[] = []
  /** Every request that arrived, whatever the answer (for counting retries). */
  requests: string[] = []
  private answers = new Map<string, Answer[]>()
  private subscribers = new Map<string, Subscriber>()
  /** Milliseconds the service waits before answering any push (so that concurrent senders overlap). */
  delayMs = 0
  private arrivals = new EventEmitter()
  private held: ServerResponse[] = []
  private server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => setTimeout(() => this.handle(request, Buffer.concat(chunks), response), this.delayMs))
  })

  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
  }

  /** Answers every push held by 'hang' so far with `status`, as a push service that gave up would. */
  release(status = 503) {
    for (const response of this.held.splice(0)) response.writeHead(status).end()
  }

  async stop() {
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  origin() {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  /** A new browser subscription: what PushSubscription.toJSON() gives the web app. */
  subscribe(name: string) {
    const ecdh = createECDH('prime256v1')
    ecdh.generateKeys()
    const auth = randomBytes(16)
    this.subscribers.set(name, { ecdh, auth })
    return {
      endpoint: `${this.origin()}/push/${name}`,
      keys: { p256dh: ecdh.getPublicKey('base64url'), auth: auth.toString('base64url') },
    }
  }

  /** The answers to the next pushes to `name`, in turn; after them, 201. */
  answer(name: string, ...answers: Answer[]) {
    this.answers.set(name, answers)
  }

  /** Resolves once `count` requests in all have arrived. */
  async arrived(count: number) {
    while (this.requests.length < count) await once(this.arrivals, 'request')
  }

  private handle(request: IncomingMessage, body: Buffer, response: ServerResponse) {
    const name = decodeURIComponent(request.url!.replace(/^\/push\//, ''))
    this.requests.push(name)
    const queued = this.answers.get(name)
    const answer = queued?.shift() ?? 201
    try {
      // Held until release(), or until stop() ends the connection.
      if (answer === 'hang') {
        this.held.push(response)
        return
      }
      if (answer !== 201) {
        response.writeHead(answer).end()
        return
      }
      const subscriber = this.subscribers.get(name)
      if (!subscriber || request.method !== 'POST') throw new Error(`no subscription ${name}`)
      this.received.push({ name, ...this.check(request, body, subscriber) })
      response.writeHead(201, { location: `${this.origin()}/message/${this.received.length}` }).end()
    } catch (error) {
      this.refused.push({ name, reason: (error as Error).message })
      response.writeHead(400).end((error as Error).message)
    } finally {
      this.arrivals.emit('request')
    }
  }

  private check(request: IncomingMessage, body: Buffer, subscriber: Subscriber): Omit<ReceivedPush, 'name'> {
    const headers = request.headers
    if (headers['content-encoding'] !== 'aes128gcm') throw new Error(`content-encoding ${headers['content-encoding']}`)
    const ttl = headers.ttl
    if (typeof ttl !== 'string' || !/^\d+$/.test(ttl)) throw new Error(`TTL header ${ttl}`)
    const authorization = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(headers.authorization ?? '')
    if (!authorization) throw new Error(`authorization ${headers.authorization}`)
    const [, token, vapidKey] = authorization as unknown as [string, string, string]
    const jwt = verifyVapidJwt(token, vapidKey)
    if (jwt.aud !== this.origin()) throw new Error(`aud ${jwt.aud} is not ${this.origin()}`)
    const now = Date.now() / 1000
    if (!(jwt.exp > now && jwt.exp <= now + 24 * 3600)) throw new Error(`exp ${jwt.exp}`)
    if (!/^(mailto:|https:)/.test(jwt.sub)) throw new Error(`sub ${jwt.sub}`)
    if (body.length > 4096) throw new Error(`body of ${body.length} bytes`)
    const message: unknown = JSON.parse(decryptAes128gcm(body, subscriber).toString('utf8'))
    return { ttl: Number(ttl), urgency: headers.urgency as string | undefined, message, jwt, vapidKey }
  }
}

/** RFC 8292: the JWT's ES256 signature, by the key in `k` (the raw 65-byte point, base64url). */
function verifyVapidJwt(token: string, rawKey: string) {
  const [header, claims, signature] = token.split('.') as [string, string, string]
  const { alg, typ } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg: string; typ?: string }
  if (alg !== 'ES256' || (typ !== undefined && typ !== 'JWT')) throw new Error(`JWT header ${alg} ${typ}`)
  const point = Buffer.from(rawKey, 'base64url')
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point')
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  })
  const signed = Buffer.from(`${header}.${claims}`)
  const ok = verify('sha256', signed, { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))
  if (!ok) throw new Error('the JWT signature does not verify with k')
  return JSON.parse(Buffer.from(claims, 'base64url').toString()) as { aud: string; exp: number; sub: string }
}

/** RFC 8291 / RFC 8188, as the browser decrypts: one record, the sender's key in the header's keyid. */
function decryptAes128gcm(body: Buffer, { ecdh, auth }: Subscriber): Buffer {
  const salt = body.subarray(0, 16)
  const recordSize = body.readUInt32BE(16)
  const idLength = body[20]!
  const senderKey = body.subarray(21, 21 + idLength)
  const record = body.subarray(21 + idLength)
  if (idLength !== 65) throw new Error(`keyid of ${idLength} bytes`)
  if (record.length > recordSize) throw new Error('more than one record')
  const shared = ecdh.computeSecret(senderKey)
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), senderKey])
  const ikm = Buffer.from(hkdfSync('sha256', shared, auth, keyInfo, 32))
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16))
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12))
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce)
  decipher.setAuthTag(record.subarray(record.length - 16))
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()])
  // The last record ends with the delimiter 2 and then zero padding.
  let end = padded.length - 1
  while (end >= 0 && padded[end] === 0) end--
  if (padded[end] !== 2) throw new Error('no last-record delimiter')
  return padded.subarray(0, end)
}

/** One push service for a test file, started once and emptied before each test. */
export function useFakePushService(): FakePushService {
  const pushService = new FakePushService()
  beforeAll(() => pushService.start())
  afterAll(() => pushService.stop())
  beforeEach(() => {
    pushService.received = []
    pushService.refused = []
    pushService.requests = []
    pushService.delayMs = 0
  })
  return pushService
}
