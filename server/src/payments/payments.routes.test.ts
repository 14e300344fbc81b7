import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createQuiz, createUser, paidAccessUntil } from '../../test/factories'
import { useTestApp, type TestApp } from '../../test/test-app'
import { PAID_ACCESS_NO_END, type UserRow } from '../db/schema'
import { startFakeEsewa, startFakeKhalti, type FakeEsewa, type FakeKhalti } from '../../test/fake-gateways'

const DAY = 86_400_000
const HOUR = 3_600_000
const KHALTI_KEY = 'live_secret_key_68791341fdd94846a146f0457ff7b455'
const ESEWA_KEY = '8gBm/:&EnhH.1/q'

// Filled in once the local gateways listen; useTestApp reads it before each test.
const env: Record<string, string> = {
  PAYMENT_PROVIDERS: 'khalti,esewa',
  PUBLIC_URL: 'https://quiz.example.np',
  // Long enough for an answering gateway on a loaded machine; the one test of a hanging gateway waits it out.
  PAYMENT_TIMEOUT_MS: '3000',
  KHALTI_SECRET_KEY: KHALTI_KEY,
  ESEWA_SECRET_KEY: ESEWA_KEY,
  ESEWA_PRODUCT_CODE: 'EPAYTEST',
}
const limitedEnv: Record<string, string> = {}
let khalti: FakeKhalti
let esewa: FakeEsewa
beforeAll(async () => {
  khalti = await startFakeKhalti(KHALTI_KEY)
  esewa = await startFakeEsewa('EPAYTEST', ESEWA_KEY)
  env.KHALTI_BASE_URL = khalti.baseUrl
  env.ESEWA_FORM_URL = esewa.formUrl
  env.ESEWA_STATUS_URL = esewa.statusUrl
  Object.assign(limitedEnv, env, {
    RATE_LIMIT_PAYMENT_START_PER_USER_HOUR: '2',
    RATE_LIMIT_PAYMENT_RETURN_PER_IP_HOUR: '3',
  })
})
afterAll(async () => {
  await khalti.close()
  await esewa.close()
})
beforeEach(() => {
  khalti.state.outage = 'none'
  esewa.state.outage = 'none'
})

/** The requests and reads every payments test makes, on one test app. */
function paymentHelpers(t: TestApp) {
  async function call(user: UserRow | null, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) {
    const headers = user ? await bearerFor(t.tokens, user) : {}
    const response = await t.app.inject({ method, url, headers, payload })
    return { status: response.statusCode, body: response.body ? response.json() : undefined, headers: response.headers }
  }
  const browser = (method: 'GET' | 'POST', url: string, payload?: string) =>
    t.app.inject({
      method,
      url,
      payload,
      headers: payload ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
    })

  async function plan(overrides: { price_paisa?: number; days?: number; active?: boolean } = {}) {
    const admin = await createUser(t.database, { is_admin: 1 })
    const created = await call(admin, 'POST', '/api/admin/plans/', {
      name: { en: 'One month', ne: 'एक महिना' },
      price_paisa: 50000,
      days: 30,
      ...overrides,
    })
    expect(created.status).toBe(201)
    return created.body as { id: number; price_paisa: number; days: number }
  }
  const accessOf = (user: UserRow) => paidAccessUntil(t.db, user.id)
  const statusOf = async (paymentId: number) =>
    (await t.db.selectFrom('payments').selectAll().where('id', '=', paymentId).executeTakeFirstOrThrow()).status
  return { call, browser, plan, accessOf, statusOf }
}

describe.each(dialects)('plans and payments on %s', (dialect) => {
  const t = useTestApp(dialect, env)
  const { call, browser, plan, accessOf, statusOf } = paymentHelpers(t)

  describe('plans', () => {
    it('lets an admin create, list and edit plans, and shows learners the active ones', async () => {
      const admin = await createUser(t.database, { is_admin: 1 })
      const learner = await createUser(t.database)
      const month = await call(admin, 'POST', '/api/admin/plans/', {
        name: { en: 'One month' },
        price_paisa: 50000,
        days: 30,
      })
      expect(month).toMatchObject({
        status: 201,
        body: { id: expect.any(Number), name: { en: 'One month', ne: '' }, price_paisa: 50000, days: 30, active: true },
      })
      const year = await call(admin, 'POST', '/api/admin/plans/', {
        name: { en: 'One year', ne: 'एक वर्ष' },
        price_paisa: 400000,
        days: 365,
        active: false,
      })
      expect((await call(learner, 'GET', '/api/plans/')).body).toEqual([month.body])
      expect((await call(admin, 'GET', '/api/admin/plans/')).body).toEqual([month.body, year.body])

      const edited = await call(admin, 'PATCH', `/api/admin/plans/${year.body.id}/`, {
        active: true,
        price_paisa: 350000,
      })
      expect(edited).toMatchObject({ status: 200, body: { active: true, price_paisa: 350000, days: 365 } })
      expect((await call(learner, 'GET', '/api/plans')).body).toHaveLength(2)
    })

    it.each([
      ['a price under Rs 10', { price_paisa: 999 }, 'price_paisa'],
      ['a price in fractions of a paisa', { price_paisa: 1000.5 }, 'price_paisa'],
      ['a price sent as a string', { price_paisa: '50000' }, 'price_paisa'],
      ['zero days', { days: 0 }, 'days'],
      ['more than 3660 days', { days: 3661 }, 'days'],
      ['an empty English name', { name: { en: ' ' } }, 'name.en'],
    ])('refuses %s with 400 naming the field', async (_label, change, field) => {
      const admin = await createUser(t.database, { is_admin: 1 })
      const response = await call(admin, 'POST', '/api/admin/plans/', {
        name: { en: 'Month' },
        price_paisa: 50000,
        days: 30,
        ...change,
      })
      expect(response.status).toBe(400)
      expect(response.body.code).toBe('validation_error')
      expect(Object.keys(response.body.errors)).toContain(field)
      expect(await t.db.selectFrom('plans').selectAll().execute()).toEqual([])
    })

    it('answers 401 without a token, 403 to a learner on admin routes, 404 for an unknown plan', async () => {
      const learner = await createUser(t.database)
      const admin = await createUser(t.database, { is_admin: 1 })
      expect((await call(null, 'GET', '/api/plans/')).status).toBe(401)
      expect((await call(null, 'GET', '/api/admin/plans/')).status).toBe(401)
      expect((await call(learner, 'GET', '/api/admin/plans/')).status).toBe(403)
      expect(
        (await call(learner, 'POST', '/api/admin/plans/', { name: { en: 'x' }, price_paisa: 5000, days: 3 })).status,
      ).toBe(403)
      expect((await call(learner, 'PATCH', '/api/admin/plans/1/', { active: false })).status).toBe(403)
      expect((await call(admin, 'PATCH', '/api/admin/plans/999/', { active: false })).status).toBe(404)
      const { id } = await plan()
      expect((await call(admin, 'PATCH', `/api/admin/plans/${id}/`, { days: 0 })).status).toBe(400)
    })
  })

  describe('starting a payment', () => {
    it('refuses without a token, an unknown or inactive plan, and a provider that is not offered', async () => {
      const learner = await createUser(t.database)
      const active = await plan()
      const inactive = await plan({ active: false })
      expect((await call(null, 'POST', '/api/payments/', { plan_id: active.id, provider: 'khalti' })).status).toBe(401)
      for (const [body, field] of [
        [{ plan_id: 999, provider: 'khalti' }, 'plan_id'],
        [{ plan_id: inactive.id, provider: 'khalti' }, 'plan_id'],
        [{ plan_id: active.id, provider: 'paypal' }, 'provider'],
        [{ plan_id: active.id, provider: 'fake' }, 'provider'],
        [{ plan_id: String(active.id), provider: 'khalti' }, 'plan_id'],
      ] as const) {
        const response = await call(learner, 'POST', '/api/payments/', body)
        expect(response.status, JSON.stringify(body)).toBe(400)
        expect(Object.keys(response.body.errors)).toContain(field)
      }
      expect(await t.db.selectFrom('payments').selectAll().execute()).toEqual([])
    })

    it('lists the configured providers for the plans page', async () => {
      const learner = await createUser(t.database)
      expect((await call(learner, 'GET', '/api/payments/providers/')).body).toEqual(['khalti', 'esewa'])
    })

    it('answers 503 and records the payment as failed when Khalti cannot be reached to start it', async () => {
      const learner = await createUser(t.database)
      const { id } = await plan()
      khalti.state.outage = 'down'
      const response = await call(learner, 'POST', '/api/payments/', { plan_id: id, provider: 'khalti' })
      expect(response).toMatchObject({ status: 503, body: { code: 'service_unavailable' } })
      const [row] = await t.db.selectFrom('payments').selectAll().execute()
      expect(row).toMatchObject({ status: 'failed', failure_reason: 'initiate_failed' })
      expect(await accessOf(learner)).toBeNull()
    })
  })

  describe('Khalti', () => {
    async function startKhalti(learner: UserRow, planId: number) {
      const started = await call(learner, 'POST', '/api/payments/', { plan_id: planId, provider: 'khalti' })
      expect(started.status).toBe(201)
      const pidx = new URL(started.body.redirect.url).searchParams.get('pidx')!
      return { paymentId: started.body.payment_id as number, pidx }
    }
    const khaltiReturn = (pidx: string, extra = '') =>
      browser('GET', `/api/payments/khalti/return/?pidx=${pidx}&status=Completed&amount=50000${extra}`)

    it('ignores what the return says and completes only on a Completed lookup with our amount', async () => {
      const learner = await createUser(t.database)
      const { paymentId, pidx } = await startKhalti(learner, (await plan()).id)
      // The browser's return claims Completed; Khalti's lookup still says Initiated.
      const early = await khaltiReturn(pidx)
      expect(early.headers.location).toBe(`/payments/${paymentId}`)
      expect(await statusOf(paymentId)).toBe('pending')

      khalti.settle(pidx, 'Completed')
      await khaltiReturn(pidx)
      expect(await statusOf(paymentId)).toBe('completed')
      expect(await accessOf(learner)).toBe(t.clock.now() + 30 * DAY)
    })

    it('fails a payment whose lookup names another amount, granting nothing', async () => {
      const learner = await createUser(t.database)
      const { paymentId, pidx } = await startKhalti(learner, (await plan()).id)
      khalti.settle(pidx, 'Completed', 1000)
      await khaltiReturn(pidx)
      expect((await call(learner, 'GET', `/api/payments/${paymentId}/`)).body).toMatchObject({
        status: 'failed',
        failure_reason: 'mismatch',
        paid_access_until: null,
      })
    })

    it.each([
      ['Pending', 'pending', null],
      ['Expired', 'failed', 'expired'],
      ['User canceled', 'failed', 'canceled'],
    ])('records a lookup that says %s', async (khaltiStatus, status, reason) => {
      const learner = await createUser(t.database)
      const { paymentId, pidx } = await startKhalti(learner, (await plan()).id)
      khalti.settle(pidx, khaltiStatus)
      await khaltiReturn(pidx)
      expect((await call(learner, 'GET', `/api/payments/${paymentId}/`)).body).toMatchObject({
        status,
        failure_reason: reason,
      })
      expect(await accessOf(learner)).toBeNull()
    })

    it('keeps a payment pending while Khalti is down, and a later GET completes it', async () => {
      const learner = await createUser(t.database)
      const { paymentId, pidx } = await startKhalti(learner, (await plan()).id)
      khalti.settle(pidx, 'Completed')
      khalti.state.outage = 'down'
      expect((await khaltiReturn(pidx)).headers.location).toBe(`/payments/${paymentId}`)
      expect((await call(learner, 'GET', `/api/payments/${paymentId}/`)).body.status).toBe('pending')
      khalti.state.outage = 'hang'
      expect((await call(learner, 'GET', `/api/payments/${paymentId}/`)).body.status).toBe('pending')
      khalti.state.outage = 'none'
      expect((await call(learner, 'GET', `/api/payments/${paymentId}/`)).body.status).toBe('completed')
    })

    it('grants once when six returns and six status reads arrive at once', async () => {
      const learner = await createUser(t.database)
      const { paymentId, pidx } = await startKhalti(learner, (await plan({ days: 30 })).id)
      khalti.settle(pidx, 'Completed')
      const lookupsBefore = khalti.state.lookups
      const responses = await Promise.all([
        ...Array.from({ length: 6 }, () => khaltiReturn(pidx)),
        ...Array.from({ length: 6 }, () =>
          bearerFor(t.tokens, learner).then((headers) =>
            t.app.inject({ method: 'GET', url: `/api/payments/${paymentId}/`, headers }),
          ),
        ),
      ])
      expect(responses.map((r) => r.statusCode)).toEqual([...Array(6).fill(303), ...Array(6).fill(200)])
      expect(khalti.state.lookups - lookupsBefore).toBeGreaterThanOrEqual(1)
      expect(await accessOf(learner)).toBe(t.clock.now() + 30 * DAY)
      expect(await statusOf(paymentId)).toBe('completed')
    })
  })

  describe('eSewa', () => {
    async function startEsewa(learner: UserRow, planId: number) {
      const started = await call(learner, 'POST', '/api/payments/', { plan_id: planId, provider: 'esewa' })
      expect(started.status).toBe(201)
      return {
        paymentId: started.body.payment_id as number,
        fields: started.body.redirect.fields as Record<string, string>,
        redirect: started.body.redirect,
      }
    }
    const success = (paymentId: number, data: string) =>
      browser('GET', `/api/payments/esewa/return/${paymentId}/success/?data=${encodeURIComponent(data)}`)

    it('hands the browser a signed form for the eSewa form URL', async () => {
      const learner = await createUser(t.database)
      const { redirect, fields, paymentId } = await startEsewa(learner, (await plan({ price_paisa: 12345 })).id)
      expect(redirect).toMatchObject({ method: 'POST', url: esewa.formUrl })
      expect(fields).toMatchObject({
        total_amount: '123.45',
        product_code: 'EPAYTEST',
        success_url: `https://quiz.example.np/api/payments/esewa/return/${paymentId}/success/`,
      })
      expect(JSON.stringify(redirect)).not.toContain(ESEWA_KEY)
    })

    it('ignores a return with a forged signature, then completes on a genuine one confirmed by the status check', async () => {
      const learner = await createUser(t.database)
      const { paymentId, fields } = await startEsewa(learner, (await plan()).id)
      const uuid = fields.transaction_uuid!
      esewa.transactions.set(uuid, { status: 'COMPLETE', total_amount: 500.0, ref_id: '000AWEO' })
      const checksBefore = esewa.state.checks
      const forged = await success(
        paymentId,
        esewa.successData({ transaction_uuid: uuid, total_amount: '500' }, 'forger'),
      )
      expect(forged.headers.location).toBe(`/payments/${paymentId}`)
      expect(esewa.state.checks).toBe(checksBefore)
      expect(await statusOf(paymentId)).toBe('pending')

      await success(
        paymentId,
        esewa.successData({ transaction_uuid: uuid, total_amount: '500.0', amountAsNumber: true }),
      )
      expect(await statusOf(paymentId)).toBe('completed')
      expect(await accessOf(learner)).toBe(t.clock.now() + 30 * DAY)
    })

    it('fails the payment when the status check says COMPLETE for another amount', async () => {
      const learner = await createUser(t.database)
      const { paymentId, fields } = await startEsewa(learner, (await plan()).id)
      const uuid = fields.transaction_uuid!
      esewa.transactions.set(uuid, { status: 'COMPLETE', total_amount: '5.0', ref_id: 'X' })
      await success(paymentId, esewa.successData({ transaction_uuid: uuid, total_amount: '500' }))
      expect(await statusOf(paymentId)).toBe('failed')
      expect(await accessOf(learner)).toBeNull()
    })

    it('checks the status on the failure return: CANCELED fails it, NOT_FOUND waits an hour', async () => {
      const learner = await createUser(t.database)
      const first = await startEsewa(learner, (await plan()).id)
      await browser('GET', `/api/payments/esewa/return/${first.paymentId}/failure/`)
      expect(await statusOf(first.paymentId)).toBe('pending')
      t.clock.advance(2 * HOUR)
      await browser('GET', `/api/payments/esewa/return/${first.paymentId}/failure/`)
      expect((await call(learner, 'GET', `/api/payments/${first.paymentId}/`)).body).toMatchObject({
        status: 'failed',
        failure_reason: 'not_found',
      })

      const second = await startEsewa(learner, (await plan()).id)
      esewa.transactions.set(second.fields.transaction_uuid!, { status: 'CANCELED', total_amount: 500, ref_id: null })
      await browser('GET', `/api/payments/esewa/return/${second.paymentId}/failure/`)
      expect(await statusOf(second.paymentId)).toBe('failed')
    })
  })

  describe('paid access', () => {
    async function buy(learner: UserRow, days: number) {
      const { id } = await plan({ days })
      const started = await call(learner, 'POST', '/api/payments/', { plan_id: id, provider: 'khalti' })
      const pidx = new URL(started.body.redirect.url).searchParams.get('pidx')!
      khalti.settle(pidx, 'Completed')
      await browser('GET', `/api/payments/khalti/return/?pidx=${pidx}`)
      return started.body.payment_id as number
    }

    it('extends from the current end while access lasts, from now once it ended, and keeps no end as no end', async () => {
      const now = t.clock.now()
      const current = await createUser(t.database, { paid_access_until: now + 10 * DAY })
      await buy(current, 30)
      expect(await accessOf(current)).toBe(now + 40 * DAY)

      const ended = await createUser(t.database, { paid_access_until: now - DAY })
      await buy(ended, 30)
      expect(await accessOf(ended)).toBe(now + 30 * DAY)

      const forever = await createUser(t.database, { paid_access_until: PAID_ACCESS_NO_END })
      await buy(forever, 30)
      expect(await accessOf(forever)).toBe(PAID_ACCESS_NO_END)
    })

    it('treats access that ended as none on the quiz list and at the start of a paid quiz', async () => {
      const learner = await createUser(t.database, { paid_access_until: t.clock.now() + HOUR })
      const { quiz } = await createQuiz(t.database, { is_paid_tier: 1 })
      expect((await call(learner, 'GET', '/api/quizzes/')).body[0].can_start).toBe(true)
      t.clock.advance(2 * HOUR)
      expect((await call(learner, 'GET', '/api/quizzes/')).body[0].can_start).toBe(false)
      expect(await call(learner, 'GET', `/api/quizzes/${quiz.id}/`)).toMatchObject({
        status: 403,
        body: { code: 'paid_access_required' },
      })
    })
  })

  describe('admin payments', () => {
    it('lists payments newest first with learner and plan, filtered by status and paged', async () => {
      const admin = await createUser(t.database, { is_admin: 1 })
      const learner = await createUser(t.database, { username: 'sita' })
      const { id: planId } = await plan()
      for (let i = 0; i < 3; i++) await call(learner, 'POST', '/api/payments/', { plan_id: planId, provider: 'khalti' })
      const all = await call(admin, 'GET', '/api/admin/payments/')
      expect(all.body).toMatchObject({ count: 3, page: 1, page_size: 50 })
      expect(all.body.results[0]).toMatchObject({
        status: 'pending',
        amount_paisa: 50000,
        plan: { id: planId, name: { en: 'One month' } },
        learner: { username: 'sita' },
      })
      expect(all.body.results.map((p: { payment_id: number }) => p.payment_id)).toEqual(
        [3, 2, 1].map((n) => all.body.results[3 - n].payment_id),
      )
      expect((await call(admin, 'GET', '/api/admin/payments/?status=completed')).body).toMatchObject({
        count: 0,
        results: [],
      })
      expect((await call(admin, 'GET', '/api/admin/payments/?page=2')).body).toMatchObject({ count: 3, results: [] })
      expect((await call(admin, 'GET', '/api/admin/payments/?status=paid')).status).toBe(400)
      expect((await call(admin, 'GET', '/api/admin/payments/?page=0')).status).toBe(400)
      expect((await call(learner, 'GET', '/api/admin/payments/')).status).toBe(403)
      expect((await call(null, 'GET', '/api/admin/payments/')).status).toBe(401)
    })
  })

  it("admits eSewa's form origin in CSP form-action and nothing else besides 'self'", async () => {
    // A JSON answer carries no page's CSP (decision 136): the way back from Khalti is a redirect to a page.
    const response = await t.app.inject({ method: 'GET', url: '/api/payments/khalti/return/' })
    const formAction = String(response.headers['content-security-policy'])
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('form-action'))
    expect(formAction).toBe(`form-action 'self' ${new URL(esewa.formUrl).origin}`)
  })
})

// The development provider runs alone: config refuses it beside Khalti or eSewa.
describe.each(dialects)('the fake provider on %s', (dialect) => {
  const t = useTestApp(dialect, { PAYMENT_PROVIDERS: 'fake' })
  const { call, browser, plan, accessOf } = paymentHelpers(t)

  describe('the fake provider', () => {
    async function startFake(learner: UserRow, planId: number) {
      const started = await call(learner, 'POST', '/api/payments/', { plan_id: planId, provider: 'fake' })
      expect(started.status).toBe(201)
      return started.body as { payment_id: number; redirect: { url: string } }
    }

    it('takes a learner through checkout, return and verification to paid access', async () => {
      const learner = await createUser(t.database)
      const { id: planId } = await plan({ price_paisa: 50000, days: 30 })
      const paid = await createQuiz(t.database, { is_paid_tier: 1 })
      const started = await startFake(learner, planId)
      expect(started).toMatchObject({
        provider: 'fake',
        amount_paisa: 50000,
        status: 'pending',
        redirect: {
          method: 'GET',
          url: expect.stringMatching(/^\/api\/payments\/fake\/checkout\/\?ref=[0-9a-f]{32}$/),
        },
      })
      const ref = started.redirect.url.split('ref=')[1]!
      const quizList = async () =>
        (await call(learner, 'GET', '/api/quizzes/')).body.find((q: { id: number }) => q.id === paid.quiz.id)
      expect((await quizList()).can_start).toBe(false)

      const checkout = await browser('GET', started.redirect.url)
      expect(checkout.statusCode).toBe(200)
      expect(checkout.body).toContain('Rs 500')
      expect((await call(learner, 'GET', `/api/payments/${started.payment_id}/`)).body.status).toBe('pending')

      const pay = await browser('POST', '/api/payments/fake/checkout/', `ref=${ref}&decision=pay`)
      expect(pay.statusCode).toBe(303)
      const back = await browser('GET', pay.headers.location as string)
      expect(back.statusCode).toBe(303)
      expect(back.headers.location).toBe(`/payments/${started.payment_id}`)

      const done = await call(learner, 'GET', `/api/payments/${started.payment_id}/`)
      expect(done.body).toMatchObject({
        payment_id: started.payment_id,
        plan_id: planId,
        status: 'completed',
        failure_reason: null,
        paid_access_until: new Date(t.clock.now() + 30 * DAY).toISOString(),
      })
      expect((await quizList()).can_start).toBe(true)
      expect((await call(learner, 'GET', `/api/quizzes/${paid.quiz.id}/`)).status).toBe(200)

      // A second return, or a replayed Pay, grants nothing more.
      await browser('POST', '/api/payments/fake/checkout/', `ref=${ref}&decision=pay`)
      await browser('GET', `/api/payments/fake/return/?ref=${ref}`)
      expect(await accessOf(learner)).toBe(t.clock.now() + 30 * DAY)
    })

    it('fails a canceled checkout and grants nothing', async () => {
      const learner = await createUser(t.database)
      const started = await startFake(learner, (await plan()).id)
      const ref = started.redirect.url.split('ref=')[1]!
      await browser('POST', '/api/payments/fake/checkout/', `ref=${ref}&decision=cancel`)
      await browser('GET', `/api/payments/fake/return/?ref=${ref}`)
      expect((await call(learner, 'GET', `/api/payments/${started.payment_id}/`)).body).toMatchObject({
        status: 'failed',
        failure_reason: 'canceled',
        paid_access_until: null,
      })
    })

    it("answers 404 for another learner's payment and for one that does not exist", async () => {
      const owner = await createUser(t.database)
      const other = await createUser(t.database)
      const started = await startFake(owner, (await plan()).id)
      expect((await call(other, 'GET', `/api/payments/${started.payment_id}/`)).status).toBe(404)
      expect((await call(owner, 'GET', '/api/payments/9999/')).status).toBe(404)
      expect((await call(null, 'GET', `/api/payments/${started.payment_id}/`)).status).toBe(401)
    })

    it('sends an unknown return back to the plans page and changes nothing', async () => {
      const response = await browser('GET', `/api/payments/fake/return/?ref=${'0'.repeat(32)}`)
      expect(response.statusCode).toBe(303)
      expect(response.headers.location).toBe('/plans')
      expect((await browser('GET', '/api/payments/khalti/return/?pidx=nope')).headers.location).toBe('/plans')
    })
  })
})

// Each start and each return asks the provider over the network.
describe.each(dialects)('payment rate limits on %s', (dialect) => {
  const t = useTestApp(dialect, limitedEnv)
  const { call, browser, plan } = paymentHelpers(t)

  it('limits starts per learner and returns per client address, with 429', async () => {
    const learner = await createUser(t.database)
    const other = await createUser(t.database)
    const { id } = await plan()
    const start = (user: UserRow) => call(user, 'POST', '/api/payments/', { plan_id: id, provider: 'khalti' })
    expect((await start(learner)).status).toBe(201)
    expect((await start(learner)).status).toBe(201)
    expect((await start(learner)).status).toBe(429)
    expect((await start(other)).status).toBe(201)

    const statuses = []
    for (const url of [
      '/api/payments/khalti/return/?pidx=a',
      '/api/payments/esewa/return/1/failure/',
      '/api/payments/esewa/return/1/success/?data=x',
      '/api/payments/khalti/return/?pidx=b',
    ])
      statuses.push((await browser('GET', url)).statusCode)
    expect(statuses).toEqual([303, 303, 303, 429])
  })
})
