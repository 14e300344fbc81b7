import { sql } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { startFakeEsewa, startFakeKhalti, type FakeEsewa, type FakeKhalti } from '../../test/fake-gateways'
import { createUser, paidAccessUntil } from '../../test/factories'
import { openQuiz } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import type { UserRow } from '../db/schema'
import { createInstitutesService } from '../institutes/institutes.service'

// API.md "Institutes": "a payment is verified with, and credited to, the institute of the host it was made on"
// (docs/decisions/099). Main takes payments with the environment's keys, Pathshala with its own.
const MAIN_KHALTI = 'live_secret_key_main0000000000000000000000000000'
const THEIR_KHALTI = 'live_secret_key_pathshala000000000000000000000'
const MAIN_ESEWA = { productCode: 'EPAYTEST', secretKey: '8gBm/:&EnhH.1/q' }
const THEIR_ESEWA = { productCode: 'PATHSHALA', secretKey: 'pathshala-esewa-secret' }
const MAIN = 'main.example.np'
const THEIRS = 'pathshala.example.np'
const NO_KEYS = 'nokeys.example.np'

const env: Record<string, string> = {
  PAYMENT_PROVIDERS: 'khalti,esewa',
  PUBLIC_URL: 'https://quiz.example.np',
  PAYMENT_TIMEOUT_MS: '3000',
  KHALTI_SECRET_KEY: MAIN_KHALTI,
  ESEWA_SECRET_KEY: MAIN_ESEWA.secretKey,
  ESEWA_PRODUCT_CODE: MAIN_ESEWA.productCode,
}
let khalti: FakeKhalti
let esewa: FakeEsewa
beforeAll(async () => {
  khalti = await startFakeKhalti(MAIN_KHALTI, THEIR_KHALTI)
  esewa = await startFakeEsewa(MAIN_ESEWA.productCode, MAIN_ESEWA.secretKey, [THEIR_ESEWA])
  Object.assign(env, {
    KHALTI_BASE_URL: khalti.baseUrl,
    ESEWA_FORM_URL: esewa.formUrl,
    ESEWA_STATUS_URL: esewa.statusUrl,
  })
})
afterAll(async () => {
  await khalti.close()
  await esewa.close()
})

describe.each(dialects)('payments of two institutes on %s', (dialect) => {
  const t = useTestApp(dialect, env)
  let theirId: number

  beforeEach(async () => {
    await sql`insert into institute_hosts (host, institute_id) values (${MAIN}, 1)`.execute(t.db)
    const institutes = createInstitutesService({ database: t.database, config: t.config, clock: t.clock })
    theirId = await institutes.create({ slug: 'pathshala', name: { en: 'Pathshala' }, hosts: [THEIRS] })
    await institutes.create({ slug: 'nokeys', name: { en: 'No Keys' }, hosts: [NO_KEYS] })
    const settings = await call(THEIRS, await person('pathshala', 1), 'PUT', '/api/admin/institute/settings/', {
      khalti: { public_key: 'live_public_key_pathshala', secret_key: THEIR_KHALTI },
      esewa: { merchant_code: THEIR_ESEWA.productCode, secret_key: THEIR_ESEWA.secretKey },
    })
    expect(settings.status).toBe(200)
  })

  /** A person of one institute: the token is for that institute (its slug), as sign-in there gives. */
  async function person(institute: string, isAdmin: 0 | 1 = 0) {
    // A member of that institute, its roles there (docs/decisions/096).
    const { id } = await t.db
      .selectFrom('institutes')
      .select('id')
      .where('slug', '=', institute)
      .executeTakeFirstOrThrow()
    const user = await createUser(t.database, { is_admin: isAdmin, institute: id })
    const access = await t.tokens.signAccess({
      id: user.id,
      username: user.username,
      is_admin: isAdmin === 1,
      is_marker: false,
      institute,
    })
    return { user, headers: { authorization: `Bearer ${access}` } }
  }
  type Person = Awaited<ReturnType<typeof person>>
  async function call(host: string, who: Person | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
    const response = await t.app.inject({ method, url, headers: { host, ...who?.headers }, payload })
    return { status: response.statusCode, body: response.body ? response.json() : undefined }
  }
  const browser = (host: string, url: string) => t.app.inject({ method: 'GET', url, headers: { host } })
  async function plan(host: string, institute: string) {
    const created = await call(host, await person(institute, 1), 'POST', '/api/admin/plans/', {
      name: { en: `${institute} month`, ne: '' },
      price_paisa: 50000,
      days: 30,
    })
    expect(created.status).toBe(201)
    return created.body.id as number
  }
  async function start(host: string, learner: Person, planId: number, provider: 'khalti' | 'esewa') {
    const started = await call(host, learner, 'POST', '/api/payments/', { plan_id: planId, provider })
    expect(started.status).toBe(201)
    return started.body as {
      payment_id: number
      redirect: { url: string; fields: Record<string, string> }
    }
  }
  const rowOf = async (id: number) =>
    (
      await sql<{
        status: string
        institute_id: number
      }>`select status, institute_id from payments where id = ${id}`.execute(t.db)
    ).rows[0]!
  const accessOf = (user: UserRow, institute?: number) => paidAccessUntil(t.db, user.id, institute)

  it('lists on each host only its institute’s plans', async () => {
    const mainPlan = await plan(MAIN, 'main')
    const theirPlan = await plan(THEIRS, 'pathshala')
    const ids = async (host: string, institute: string) =>
      ((await call(host, await person(institute), 'GET', '/api/plans/')).body as { id: number }[]).map((p) => p.id)
    expect(await ids(MAIN, 'main')).toEqual([mainPlan])
    expect(await ids(THEIRS, 'pathshala')).toEqual([theirPlan])
    const learner = await person('main')
    expect(
      (await call(MAIN, learner, 'POST', '/api/payments/', { plan_id: theirPlan, provider: 'khalti' })).status,
    ).toBe(400)
  })

  it('starts, verifies and credits a Khalti payment made on an institute’s host with that institute’s key', async () => {
    const learner = await person('pathshala')
    const { payment_id: id, redirect } = await start(THEIRS, learner, await plan(THEIRS, 'pathshala'), 'khalti')
    const initiate = khalti.state.initiates.at(-1)!
    expect(initiate.authorization).toBe(`Key ${THEIR_KHALTI}`)
    expect(initiate.body).toMatchObject({ return_url: `https://${THEIRS}/api/payments/khalti/return/` })
    const pidx = new URL(redirect.url).searchParams.get('pidx')!

    khalti.settle(pidx, 'Completed')
    const back = await browser(THEIRS, `/api/payments/khalti/return/?pidx=${pidx}`)
    expect(back.headers.location).toBe(`/payments/${id}`)
    expect(khalti.state.lookupKeys.at(-1)).toBe(THEIR_KHALTI)
    expect(await rowOf(id)).toEqual({ status: 'completed', institute_id: theirId })
    // Credited to the institute it was paid on (decision 103), not to the account's other memberships.
    expect(await accessOf(learner.user, theirId)).toBe(t.clock.now() + 30 * 86_400_000)
    expect(await accessOf(learner.user)).toBeUndefined() // no membership at main, so no access there
  })

  it('opens no paid-tier quiz at main to a learner of both who paid at Pathshala', async () => {
    const learner = await person('pathshala')
    await t.db.insertInto('memberships').values({ user_id: learner.user.id, institute_id: 1, created_at: 0 }).execute()
    const atMain = {
      user: learner.user,
      headers: {
        authorization: `Bearer ${await t.tokens.signAccess({
          id: learner.user.id,
          username: learner.user.username,
          is_admin: false,
          is_marker: false,
          institute: 'main',
        })}`,
      },
    }
    const { quiz } = await openQuiz(t, { is_paid_tier: 1 })
    const { redirect } = await start(THEIRS, learner, await plan(THEIRS, 'pathshala'), 'khalti')
    const pidx = new URL(redirect.url).searchParams.get('pidx')!
    khalti.settle(pidx, 'Completed')
    await browser(THEIRS, `/api/payments/khalti/return/?pidx=${pidx}`)
    expect(await accessOf(learner.user, theirId)).toBeGreaterThan(t.clock.now())

    const listed = (await call(MAIN, atMain, 'GET', '/api/quizzes/')).body as { id: number; can_start: boolean }[]
    expect(listed.find((item) => item.id === quiz.id)).toMatchObject({ can_start: false })
    const refused = await call(MAIN, atMain, 'GET', `/api/quizzes/${quiz.id}/`)
    expect([refused.status, refused.body.code]).toEqual([403, 'paid_access_required'])
    // Paid at main too, it opens.
    const { redirect: again } = await start(MAIN, atMain, await plan(MAIN, 'main'), 'khalti')
    khalti.settle(new URL(again.url).searchParams.get('pidx')!, 'Completed')
    await browser(MAIN, `/api/payments/khalti/return/?pidx=${new URL(again.url).searchParams.get('pidx')}`)
    expect((await call(MAIN, atMain, 'GET', `/api/quizzes/${quiz.id}/`)).status).toBe(200)
  })

  it('keeps taking main’s payments with the environment’s keys', async () => {
    const learner = await person('main')
    const providers = await call(MAIN, learner, 'GET', '/api/payments/providers/')
    expect(providers.body).toEqual(['khalti', 'esewa'])
    const { payment_id: id, redirect } = await start(MAIN, learner, await plan(MAIN, 'main'), 'khalti')
    expect(khalti.state.initiates.at(-1)!.authorization).toBe(`Key ${MAIN_KHALTI}`)
    khalti.settle(new URL(redirect.url).searchParams.get('pidx')!, 'Completed')
    expect((await call(MAIN, learner, 'GET', `/api/payments/${id}/`)).body).toMatchObject({ status: 'completed' })
    expect(khalti.state.lookupKeys.at(-1)).toBe(MAIN_KHALTI)
    expect(await rowOf(id)).toEqual({ status: 'completed', institute_id: 1 })
  })

  it('neither finds nor completes a payment on another institute’s host', async () => {
    const learner = await person('pathshala')
    const { payment_id: id, redirect } = await start(THEIRS, learner, await plan(THEIRS, 'pathshala'), 'khalti')
    const pidx = new URL(redirect.url).searchParams.get('pidx')!
    khalti.settle(pidx, 'Completed')
    const lookups = khalti.state.lookups

    const elsewhere = await browser(MAIN, `/api/payments/khalti/return/?pidx=${pidx}`)
    expect(elsewhere.headers.location).toBe('/plans')
    const failure = await browser(MAIN, `/api/payments/esewa/return/${id}/failure/`)
    expect(failure.headers.location).toBe('/plans')
    expect(khalti.state.lookups).toBe(lookups)
    expect(await rowOf(id)).toMatchObject({ status: 'pending' })
    const mainLearner = await person('main')
    expect((await call(MAIN, mainLearner, 'GET', `/api/payments/${id}/`)).status).toBe(404)
    // On its own host the same learner's read verifies it, with its institute's key.
    expect((await call(THEIRS, learner, 'GET', `/api/payments/${id}/`)).body).toMatchObject({ status: 'completed' })
    expect(khalti.state.lookupKeys.at(-1)).toBe(THEIR_KHALTI)
  })

  it('signs the eSewa form with the institute’s merchant and accepts only a return signed with its secret', async () => {
    const learner = await person('pathshala')
    const { payment_id: id, redirect } = await start(THEIRS, learner, await plan(THEIRS, 'pathshala'), 'esewa')
    expect(redirect.fields).toMatchObject({
      product_code: THEIR_ESEWA.productCode,
      success_url: `https://${THEIRS}/api/payments/esewa/return/${id}/success/`,
    })
    const uuid = redirect.fields.transaction_uuid!
    esewa.transactions.set(uuid, {
      status: 'COMPLETE',
      total_amount: 500.0,
      ref_id: '000AWEO',
      product_code: THEIR_ESEWA.productCode,
    })
    const success = (data: string) =>
      browser(THEIRS, `/api/payments/esewa/return/${id}/success/?data=${encodeURIComponent(data)}`)
    const checks = esewa.state.checks
    // Signed with main's secret: a good signature for another merchant is none for this one.
    await success(esewa.successData({ transaction_uuid: uuid, total_amount: '500.0' }, MAIN_ESEWA.secretKey))
    expect(esewa.state.checks).toBe(checks)
    expect(await rowOf(id)).toMatchObject({ status: 'pending' })

    const data = esewa.successData(
      { transaction_uuid: uuid, total_amount: '500.0' },
      THEIR_ESEWA.secretKey,
      THEIR_ESEWA.productCode,
    )
    await success(data)
    expect(esewa.state.checkedProductCodes.at(-1)).toBe(THEIR_ESEWA.productCode)
    expect(await rowOf(id)).toEqual({ status: 'completed', institute_id: theirId })
  })

  it('offers no provider whose sealed secret no longer opens (another JWT_SECRET), rather than use a wrong key', async () => {
    const sealed = await t.db
      .selectFrom('institute_payment_keys')
      .select('secret_sealed')
      .where('provider', '=', 'khalti')
      .executeTakeFirstOrThrow()
    // A value sealed for another institute's row is as unreadable here as one sealed under another server secret.
    await t.db
      .updateTable('institute_payment_keys')
      .set({ secret_sealed: sealed.secret_sealed })
      .where('provider', '=', 'esewa')
      .execute()
    const learner = await person('pathshala')
    expect((await call(THEIRS, learner, 'GET', '/api/payments/providers/')).body).toEqual(['khalti'])
  })

  it('refuses to take a payment on an institute with no keys, as for a provider not configured', async () => {
    const learner = await person('nokeys')
    const planId = await plan(NO_KEYS, 'nokeys')
    expect((await call(NO_KEYS, learner, 'GET', '/api/payments/providers/')).body).toEqual([])
    const refused = await call(NO_KEYS, learner, 'POST', '/api/payments/', { plan_id: planId, provider: 'khalti' })
    expect(refused).toMatchObject({
      status: 400,
      body: { code: 'validation_error', errors: { provider: [expect.any(String)] } },
    })
    // A public key alone takes no payment; nor does an eSewa secret without its merchant code.
    await call(NO_KEYS, await person('nokeys', 1), 'PUT', '/api/admin/institute/settings/', {
      khalti: { public_key: 'live_public_key_x' },
      esewa: { secret_key: 'only-a-secret' },
    })
    expect((await call(NO_KEYS, learner, 'GET', '/api/payments/providers/')).body).toEqual([])
    expect(await t.db.selectFrom('payments').selectAll().execute()).toEqual([])
  })
})
