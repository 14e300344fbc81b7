import { createECDH, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { notificationMessages } from '@quiz/contracts'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { requestsWithEmptyBodies } from '../../test/requests'
import { useTestApp } from '../../test/test-app'
import { notify } from './notifications.service'
import { endpointProblem, guardedLookup } from './push-endpoint'

const browserKeys = () => {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  return { p256dh: ecdh.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') }
}
const subscription = (endpoint = 'https://fcm.googleapis.com/fcm/send/abc:def') => ({
  endpoint,
  keys: browserKeys(),
  expirationTime: null,
})

describe.each(dialects)('push routes on %s', (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsWithEmptyBodies(t)
  const stored = () => t.db.selectFrom('push_subscriptions').selectAll().orderBy('id').execute()

  it('gives the VAPID public key without a token: base64url of a 65-byte uncompressed point', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/push/key/' })
    expect(response.statusCode).toBe(200)
    const { public_key } = response.json() as { public_key: string }
    expect(public_key).toBe(t.config.push.vapid!.publicKey)
    expect(public_key).toMatch(/^[A-Za-z0-9_-]+$/)
    const bytes = Buffer.from(public_key, 'base64url')
    expect([bytes.length, bytes[0]]).toEqual([65, 4])
    expect((await t.app.inject({ method: 'GET', url: '/api/push/key' })).statusCode).toBe(200)
  })

  it('saves a subscription (201), and again with new keys keeps one row', async () => {
    const learner = await createUser(t.database)
    const first = subscription()
    const response = await as(learner, 'POST', '/api/push/subscriptions/', first)
    expect(response.status).toBe(201)
    expect(await stored()).toMatchObject([
      { user_id: learner.id, endpoint: first.endpoint, p256dh: first.keys.p256dh, auth: first.keys.auth },
    ])
    const renewed = { ...first, keys: browserKeys() }
    expect((await as(learner, 'POST', '/api/push/subscriptions', renewed)).status).toBe(201)
    expect(await stored()).toMatchObject([{ user_id: learner.id, p256dh: renewed.keys.p256dh }])
  })

  it('moves a browser to the learner who signs in on it, without the previous learner queued pushes', async () => {
    const before = await createUser(t.database)
    const after = await createUser(t.database)
    const shared = subscription()
    await as(before, 'POST', '/api/push/subscriptions/', shared)
    await t.database.transaction((trx) =>
      notify(trx, [{ userId: before.id, kind: 'score_changed', text: { en: 'private', ne: '' }, link: null }]),
    )
    expect(await t.db.selectFrom('deliveries').selectAll().execute()).toHaveLength(1)
    expect((await as(after, 'POST', '/api/push/subscriptions/', shared)).status).toBe(201)
    expect(await stored()).toMatchObject([{ user_id: after.id, endpoint: shared.endpoint }])
    expect(await t.db.selectFrom('deliveries').selectAll().execute()).toEqual([])
  })

  it('refuses (409) to move a browser to a learner who knows only its endpoint, not its keys', async () => {
    const owner = await createUser(t.database)
    const stranger = await createUser(t.database)
    const browser = subscription()
    await as(owner, 'POST', '/api/push/subscriptions/', browser)
    await t.database.transaction((trx) =>
      notify(trx, [{ userId: owner.id, kind: 'score_changed', text: { en: 'private', ne: '' }, link: null }]),
    )
    const taken = await as(stranger, 'POST', '/api/push/subscriptions/', { ...browser, keys: browserKeys() })
    expect(taken.status).toBe(409)
    expect(taken.body).toMatchObject({ code: 'conflict', detail: notificationMessages.endpointTaken })
    // The same p256dh with a guessed auth is no better.
    const guessed = { ...browser, keys: { ...browser.keys, auth: randomBytes(16).toString('base64url') } }
    expect((await as(stranger, 'POST', '/api/push/subscriptions/', guessed)).status).toBe(409)
    expect(await stored()).toMatchObject([{ user_id: owner.id, p256dh: browser.keys.p256dh, auth: browser.keys.auth }])
    expect(await t.db.selectFrom('deliveries').selectAll().execute()).toHaveLength(1)
  })

  it("keeps a learner's 10 newest browsers: an 11th replaces the oldest", async () => {
    const learner = await createUser(t.database)
    const endpoints = Array.from({ length: 12 }, (_, n) => `https://push.example.np/browser-${n}`)
    for (const endpoint of endpoints)
      expect((await as(learner, 'POST', '/api/push/subscriptions/', subscription(endpoint))).status).toBe(201)
    expect((await stored()).map((row) => row.endpoint)).toEqual(endpoints.slice(2))
    // Another learner's are not touched by it.
    const other = await createUser(t.database)
    await as(other, 'POST', '/api/push/subscriptions/', subscription('https://push.example.np/other'))
    expect(await stored()).toHaveLength(11)
  })

  it('accepts standard base64 keys with padding, stored as base64url', async () => {
    const learner = await createUser(t.database)
    const keys = browserKeys()
    const b64 = (text: string) => Buffer.from(text, 'base64url').toString('base64')
    const response = await as(learner, 'POST', '/api/push/subscriptions/', {
      endpoint: 'https://updates.push.services.mozilla.com/wpush/v2/x',
      keys: { p256dh: b64(keys.p256dh), auth: b64(keys.auth) },
    })
    expect(response.status).toBe(201)
    expect(await stored()).toMatchObject([{ p256dh: keys.p256dh, auth: keys.auth }])
  })

  it('allows a private address outside production', async () => {
    const learner = await createUser(t.database)
    expect((await as(learner, 'POST', '/api/push/subscriptions/', subscription('https://10.1.2.3/push'))).status).toBe(
      201,
    )
  })

  const notOnCurve = `B${'A'.repeat(86)}`
  it.each([
    [
      'http without PUSH_ALLOW_INSECURE',
      { endpoint: 'http://push.example.np/x' },
      'endpoint',
      notificationMessages.endpointInsecure,
    ],
    ['a local host', { endpoint: 'https://localhost:8443/x' }, 'endpoint', notificationMessages.endpointPrivate],
    ['a loopback address', { endpoint: 'https://127.0.0.1/x' }, 'endpoint', notificationMessages.endpointPrivate],
    ['IPv6 loopback', { endpoint: 'https://[::1]/x' }, 'endpoint', notificationMessages.endpointPrivate],
    ['not a URL', { endpoint: 'push service' }, 'endpoint', notificationMessages.endpointUrl],
    ['another scheme', { endpoint: 'ftp://push.example.np/x' }, 'endpoint', notificationMessages.endpointUrl],
    [
      'credentials in the URL',
      { endpoint: 'https://u:p@push.example.np/x' },
      'endpoint',
      notificationMessages.endpointUrl,
    ],
    ['an empty endpoint', { endpoint: '' }, 'endpoint', notificationMessages.endpointUrl],
    ['an endpoint too long', { endpoint: `https://push.example.np/${'x'.repeat(2048)}` }, 'endpoint', undefined],
    ['a short p256dh', { keys: { ...browserKeys(), p256dh: 'BAAA' } }, 'keys.p256dh', notificationMessages.p256dh],
    [
      'a p256dh not on the curve',
      { keys: { ...browserKeys(), p256dh: notOnCurve } },
      'keys.p256dh',
      notificationMessages.p256dh,
    ],
    [
      'a compressed p256dh',
      { keys: { ...browserKeys(), p256dh: `A${'A'.repeat(86)}` } },
      'keys.p256dh',
      notificationMessages.p256dh,
    ],
    [
      'a long auth',
      { keys: { ...browserKeys(), auth: randomBytes(32).toString('base64url') } },
      'keys.auth',
      notificationMessages.auth,
    ],
    ['auth not base64', { keys: { ...browserKeys(), auth: '!'.repeat(22) } }, 'keys.auth', notificationMessages.auth],
    ['no keys', { keys: undefined }, 'keys', undefined],
    ['a number for the endpoint', { endpoint: 42 }, 'endpoint', undefined],
  ])('refuses %s with 400 on the field and saves nothing', async (_label, change, field, message) => {
    const learner = await createUser(t.database)
    const { status, body } = await as(learner, 'POST', '/api/push/subscriptions/', { ...subscription(), ...change })
    expect(status).toBe(400)
    expect(body).toMatchObject({ code: 'validation_error', errors: { [field]: [message ?? expect.any(String)] } })
    expect(await stored()).toEqual([])
  })

  it('refuses a body that is not an object', async () => {
    const learner = await createUser(t.database)
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/push/subscriptions/',
      headers: {
        ...(await bearerFor(t.tokens, learner)),
        'content-type': 'application/json',
      },
      payload: '"https://push.example.np/x"',
    })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ code: 'validation_error' })
  })

  it('needs a token to subscribe and unsubscribe', async () => {
    for (const method of ['POST', 'DELETE'] as const) {
      const response = await t.app.inject({ method, url: '/api/push/subscriptions/', payload: subscription() })
      expect(response.statusCode).toBe(401)
      expect(response.json()).toMatchObject({ code: 'not_authenticated' })
    }
    expect(await stored()).toEqual([])
  })

  it('unsubscribes the learner own browser (204), and never another learner', async () => {
    const learner = await createUser(t.database)
    const other = await createUser(t.database)
    const mine = subscription('https://push.example.np/mine')
    const theirs = subscription('https://push.example.np/theirs')
    await as(learner, 'POST', '/api/push/subscriptions/', mine)
    await as(other, 'POST', '/api/push/subscriptions/', theirs)

    const response = await as(learner, 'DELETE', '/api/push/subscriptions/', { endpoint: theirs.endpoint })
    expect(response.status).toBe(204)
    expect(await stored()).toHaveLength(2)
    expect((await as(learner, 'DELETE', '/api/push/subscriptions', { endpoint: mine.endpoint })).status).toBe(204)
    expect((await stored()).map((row) => row.endpoint)).toEqual([theirs.endpoint])
    // Gone already: still 204.
    expect((await as(learner, 'DELETE', '/api/push/subscriptions/', { endpoint: mine.endpoint })).status).toBe(204)
  })

  it.each([
    ['no endpoint', {}],
    ['an empty endpoint', { endpoint: '' }],
    ['a number', { endpoint: 1 }],
  ])('refuses to unsubscribe with %s (400)', async (_label, payload) => {
    const learner = await createUser(t.database)
    await as(learner, 'POST', '/api/push/subscriptions/', subscription())
    const { status, body } = await as(learner, 'DELETE', '/api/push/subscriptions/', payload)
    expect(status).toBe(400)
    expect(body).toMatchObject({ code: 'validation_error', errors: { endpoint: [expect.any(String)] } })
    expect(await stored()).toHaveLength(1)
  })
})

describe.each(dialects)('push routes with PUSH_ALLOW_INSECURE on %s', (dialect) => {
  const t = useTestApp(dialect, { PUSH_ALLOW_INSECURE: 'true' })
  const as = requestsWithEmptyBodies(t)

  it.each(['http://127.0.0.1:9999/push/x', 'http://localhost/x', 'https://[::1]/x'])('accepts %s', async (endpoint) => {
    const learner = await createUser(t.database)
    expect((await as(learner, 'POST', '/api/push/subscriptions/', subscription(endpoint))).status).toBe(201)
  })
})

describe.each(dialects)('push subscriptions rate limit on %s', (dialect) => {
  const t = useTestApp(dialect, { RATE_LIMIT_PUSH_SUBSCRIBE_PER_USER_HOUR: '3' })
  const as = requestsWithEmptyBodies(t)

  it('answers 429 past RATE_LIMIT_PUSH_SUBSCRIBE_PER_USER_HOUR subscriptions an hour, per learner', async () => {
    const learner = await createUser(t.database)
    for (let n = 0; n < 3; n++)
      expect(
        (await as(learner, 'POST', '/api/push/subscriptions/', subscription(`https://push.example.np/${n}`))).status,
      ).toBe(201)
    const refused = await as(learner, 'POST', '/api/push/subscriptions/', subscription('https://push.example.np/4'))
    expect(refused.status).toBe(429)
    expect(refused.body).toMatchObject({ code: 'rate_limited' })
    const other = await createUser(t.database)
    expect((await as(other, 'POST', '/api/push/subscriptions/', subscription())).status).toBe(201)
  })
})

describe.each(dialects)('push routes with push off on %s', (dialect) => {
  const t = useTestApp(dialect, { PUSH_ENABLED: 'false' })
  const as = requestsWithEmptyBodies(t)

  it('answers 404 for the key and subscriptions', async () => {
    const key = await t.app.inject({ method: 'GET', url: '/api/push/key/' })
    expect(key.statusCode).toBe(404)
    expect(key.json()).toMatchObject({ code: 'not_found', detail: 'Web push is off on this server.' })
    const learner = await createUser(t.database)
    expect((await as(learner, 'POST', '/api/push/subscriptions/', subscription())).status).toBe(404)
    expect(await t.db.selectFrom('push_subscriptions').selectAll().execute()).toEqual([])
  })
})

describe('push endpoints in production', () => {
  const production = { allowInsecure: false, refusePrivate: true }

  it.each([
    'https://10.0.0.5/push',
    'https://172.16.4.4/push',
    'https://192.168.1.10/push',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/push',
    'https://[fd00::1]/push',
    'https://[fe80::1]/push',
    'https://[::ffff:10.0.0.1]/push',
    'https://localhost/push',
    'https://127.0.0.1/push',
    // NAT64 reaches any IPv4 address through the gateway, a private one too; so do 6to4 and IPv4-compatible forms.
    'https://[64:ff9b::a00:1]/push',
    'https://[64:ff9b::808:808]/push',
    'https://[64:ff9b:1::a00:1]/push',
    'https://[2002:a00:1::1]/push',
    'https://[::10.0.0.1]/push',
    'https://[::ffff:a00:1]/push',
    'https://[2001::1]/push',
    'https://[2001:db8::1]/push',
    'https://[fec0::1]/push',
    'https://192.0.2.1/push',
    'https://198.51.100.7/push',
    'https://203.0.113.9/push',
    'https://192.88.99.1/push',
    'https://240.0.0.1/push',
    'https://255.255.255.255/push',
  ])('refuses the private address %s', async (endpoint) => {
    expect(await endpointProblem(endpoint, production)).toBe(notificationMessages.endpointPrivate)
  })

  it('accepts a public address, and a public address outside production', async () => {
    expect(await endpointProblem('https://8.8.8.8/push', production)).toBeNull()
    expect(await endpointProblem('https://10.0.0.5/push', { allowInsecure: false, refusePrivate: false })).toBeNull()
  })

  it('accepts a public IPv6 address', async () => {
    expect(await endpointProblem('https://[2606:4700:4700::1111]/push', production)).toBeNull()
  })

  it('pins the port to 443 in production only', async () => {
    expect(await endpointProblem('https://8.8.8.8:8443/push', production)).toBe(notificationMessages.endpointPort)
    expect(await endpointProblem('https://8.8.8.8:22/push', production)).toBe(notificationMessages.endpointPort)
    expect(await endpointProblem('https://8.8.8.8:443/push', production)).toBeNull()
    expect(
      await endpointProblem('https://8.8.8.8:8443/push', { allowInsecure: false, refusePrivate: false }),
    ).toBeNull()
  })

  it('refuses http even for a public host', async () => {
    expect(await endpointProblem('http://8.8.8.8/push', production)).toBe(notificationMessages.endpointInsecure)
  })

  it('refuses a name that resolves to a private address, and at connection time too', async () => {
    // `localhost.` resolves through the hosts file, without the network.
    expect(await endpointProblem('https://localhost./push', production)).toBe(notificationMessages.endpointPrivate)
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup('localhost', { family: 0 }, (e) => resolve(e)),
    )
    expect(error?.code).toBe('EPRIVATE')
  })
})
