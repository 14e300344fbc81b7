import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { FakePushService } from '../../test/fake-push-service'
import { useTestApp } from '../../test/test-app'
import type { UserRow } from '../db/schema'

// payment_completed (API.md "Notifications"): told in the transaction that completes the payment, pushed after it,
// and a push service that hangs slows neither the return that completed it nor any other request.
describe.each(dialects)('payment_completed on %s', (dialect) => {
  const t = useTestApp(dialect, {
    PAYMENT_PROVIDERS: 'fake',
    PUSH_ALLOW_INSECURE: 'true',
    // The app's own drainer runs, as in production.
    DELIVERY_INTERVAL_MS: '10',
  })
  const pushService = new FakePushService()
  beforeAll(() => pushService.start())
  afterAll(() => pushService.stop())

  async function call(user: UserRow, method: 'GET' | 'POST', url: string, payload?: object) {
    const response = await t.app.inject({ method, url, headers: await bearerFor(t.tokens, user), payload })
    return { status: response.statusCode, body: response.body ? response.json() : undefined }
  }
  const browser = (method: 'GET' | 'POST', url: string, payload?: string) =>
    t.app.inject({
      method,
      url,
      payload,
      headers: payload ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
    })

  /** A learner who paid Rs 500 for "One month" (30 days) through the fake provider. */
  async function pay(learner: UserRow) {
    const admin = await createUser(t.database, { is_admin: 1 })
    const plan = await call(admin, 'POST', '/api/admin/plans/', {
      name: { en: 'One month', ne: 'एक महिना' },
      price_paisa: 50000,
      days: 30,
    })
    const started = await call(learner, 'POST', '/api/payments/', { plan_id: plan.body.id, provider: 'fake' })
    const ref = (started.body.redirect.url as string).split('ref=')[1]!
    const checkout = await browser('POST', '/api/payments/fake/checkout/', `ref=${ref}&decision=pay`)
    const back = await browser('GET', checkout.headers.location as string)
    expect(back.statusCode).toBe(303)
    // Replayed returns complete nothing more, and tell nothing more.
    await browser('GET', checkout.headers.location as string)
    return { paymentId: started.body.payment_id as number }
  }

  it('tells the learner once, in both languages, with a link to the payment', async () => {
    const learner = await createUser(t.database)
    const { paymentId } = await pay(learner)
    const { body } = await call(learner, 'GET', '/api/notifications/')
    expect(body).toMatchObject({
      unread: 1,
      results: [
        {
          kind: 'payment_completed',
          text: {
            en: 'Payment received: Rs 500 for One month. Your paid access is extended by 30 days.',
            ne: 'भुक्तानी प्राप्त भयो: एक महिना का लागि रु ५००। तपाईंको सशुल्क पहुँच ३० दिन थपिएको छ।',
          },
          link: `/payments/${paymentId}`,
          read: false,
        },
      ],
    })
  })

  it('answers the return at once while the push service hangs, and pushes after the commit', async () => {
    const learner = await createUser(t.database)
    const browserSubscription = pushService.subscribe('payer')
    expect((await call(learner, 'POST', '/api/push/subscriptions/', browserSubscription)).status).toBe(201)
    // The push service holds every push until released: were the return (or any request) waiting for the push,
    // it would never be answered.
    pushService.answer('payer', 'hang')
    await pay(learner)
    // The app's drainer picks the push up and the push service holds it...
    await pushService.arrived(1)
    // ...while other requests are answered as usual.
    expect((await call(learner, 'GET', '/api/notifications/')).body.unread).toBe(1)
    expect(await t.db.selectFrom('deliveries').select('attempts').execute()).toEqual([{ attempts: 0 }])
    // The push service gives up on it; it is tried again later, and the second try arrives decrypted.
    pushService.release(503)
    await expect
      .poll(async () => (await t.db.selectFrom('deliveries').selectAll().execute())[0]?.attempts, { timeout: 5000 })
      .toBe(1)
    t.clock.advance(60_000)
    await pushService.arrived(2)
    await expect.poll(() => pushService.received.length, { timeout: 5000 }).toBe(1)
    expect(pushService.received[0]!.message).toMatchObject({ kind: 'payment_completed' })
  })
})
