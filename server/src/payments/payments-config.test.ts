import { describe, expect, it } from 'vitest'
import { createUser, bearerFor } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { buildApp } from '../app'
import { ConfigError, loadConfig } from '../config'
import { startFakeEsewa, startFakeKhalti } from '../../test/fake-gateways'
import { MemorySms } from '../../test/memory-sms'
import { fromSqlite } from '../db/database'
import { migrateToLatest } from '../db/migrate'
import { SQLite } from '../db/sqlite-driver'
import { createTokenSigner } from '../http/tokens'
import { FakeClock } from '../lib/clock'

const ESEWA_TEST_KEY = '8gBm/:&EnhH.1/q'
const base = {
  JWT_SECRET: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  SMS_PROVIDER: 'http',
  SMS_GATEWAY_URL: 'https://sms.example.np/',
  DATA_DIR: '/tmp/quiz-test-data',
}
const load = (env: Record<string, string>) => loadConfig({ ...base, ...env }, { persistSecret: false })

describe('payment settings', () => {
  it('defaults to the fake provider outside production', () => {
    expect(load({}).payments).toMatchObject({ providers: ['fake'], publicUrl: 'http://localhost:3000' })
  })

  it('refuses the fake provider in production, saying why; unset there means no provider', () => {
    expect(() => load({ NODE_ENV: 'production', PAYMENT_PROVIDERS: 'fake' })).toThrow(
      /fake, which grants paid access without payment/,
    )
    expect(load({ NODE_ENV: 'production' }).payments.providers).toEqual([])
  })

  it('refuses an unknown provider and a configured provider without its secrets, listing every problem', () => {
    let message = ''
    try {
      load({ PAYMENT_PROVIDERS: 'khalti,esewa,paypal' })
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError)
      message = (error as Error).message
    }
    expect(message).toContain('unknown provider "paypal"')
    expect(message).toContain('KHALTI_SECRET_KEY is required')
    expect(message).toContain('ESEWA_SECRET_KEY is required')
    expect(message).toContain('ESEWA_PRODUCT_CODE is required')
  })

  it('needs PUBLIC_URL in production for the real providers', () => {
    const env = { NODE_ENV: 'production', PAYMENT_PROVIDERS: 'khalti', KHALTI_SECRET_KEY: 'k' }
    expect(() => load(env)).toThrow(/PUBLIC_URL is required/)
    expect(load({ ...env, PUBLIC_URL: 'https://quiz.example.np/' }).payments.publicUrl).toBe('https://quiz.example.np')
  })

  it('refuses fake beside a real provider, in development too', () => {
    expect(() => load({ PAYMENT_PROVIDERS: 'fake,khalti', KHALTI_SECRET_KEY: 'k' })).toThrow(
      /includes fake beside khalti/,
    )
  })

  describe('in production', () => {
    const live = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://quiz.example.np',
      PAYMENT_PROVIDERS: 'khalti,esewa',
      KHALTI_SECRET_KEY: 'live_secret_key_0123456789abcdef',
      ESEWA_PRODUCT_CODE: 'NP-ES-QUIZ',
      ESEWA_SECRET_KEY: 'merchant-secret-from-esewa',
    }
    const sandbox = {
      KHALTI_BASE_URL: 'https://dev.khalti.com/api/v2/',
      KHALTI_SECRET_KEY: 'test_secret_key_0123456789abcdef',
      ESEWA_FORM_URL: 'https://rc-epay.esewa.com.np/api/epay/main/v2/form',
      ESEWA_STATUS_URL: 'https://rc.esewa.com.np/api/epay/transaction/status/',
      ESEWA_PRODUCT_CODE: 'EPAYTEST',
      ESEWA_SECRET_KEY: ESEWA_TEST_KEY,
    }

    it('accepts the live hosts and merchant keys', () => {
      expect(load(live).payments).toMatchObject({ providers: ['khalti', 'esewa'], sandbox: false })
    })

    it("refuses each of the providers' test hosts, codes and keys, naming it", () => {
      let message = ''
      try {
        load({ ...live, ...sandbox })
      } catch (error) {
        message = (error as Error).message
      }
      expect(message).toContain("KHALTI_BASE_URL is Khalti's test host dev.khalti.com")
      expect(message).toContain('KHALTI_SECRET_KEY is a Khalti test key')
      expect(message).toContain("ESEWA_FORM_URL is eSewa's test host rc-epay.esewa.com.np")
      expect(message).toContain("ESEWA_STATUS_URL is eSewa's test host rc.esewa.com.np")
      expect(message).toContain("ESEWA_PRODUCT_CODE is eSewa's test code EPAYTEST")
      expect(message).toContain("ESEWA_SECRET_KEY is eSewa's published test key")
      expect(message).toContain('PAYMENT_SANDBOX=true')
    })

    it.each([
      ['KHALTI_BASE_URL', 'http://khalti.com/api/v2/', 'KHALTI_BASE_URL must be an https:// address in production.'],
      [
        'KHALTI_BASE_URL',
        'https://khalti.example.np/api/v2/',
        "KHALTI_BASE_URL names khalti.example.np, which is not Khalti's",
      ],
      ['KHALTI_BASE_URL', 'https://khalti.com.evil.np/api/v2/', "which is not Khalti's"],
      ['KHALTI_BASE_URL', 'https://khalti.com:8443/api/v2/', "KHALTI_BASE_URL must use Khalti's https port, 443."],
      ['ESEWA_FORM_URL', 'http://epay.esewa.com.np/api/epay/main/v2/form', 'ESEWA_FORM_URL must be an https://'],
      ['ESEWA_STATUS_URL', 'https://10.0.0.5/status/', "ESEWA_STATUS_URL names 10.0.0.5, which is not eSewa's"],
      ['ESEWA_STATUS_URL', 'https://status.example.com/', "which is not eSewa's"],
    ])('refuses %s=%s, with PAYMENT_SANDBOX too', (name, value, message) => {
      for (const sandboxed of [{ PAYMENT_SANDBOX: 'false' }, { PAYMENT_SANDBOX: 'true' }])
        expect(() => load({ ...live, ...sandboxed, [name]: value })).toThrow(message)
    })

    it('leaves the URLs of a provider not in use alone', () => {
      const onlyEsewa = { ...live, PAYMENT_PROVIDERS: 'esewa', KHALTI_BASE_URL: 'http://khalti.example.np/' }
      expect(load(onlyEsewa).payments.providers).toEqual(['esewa'])
    })

    it("accepts the providers' other documented sandbox hosts with PAYMENT_SANDBOX=true", () => {
      const other = {
        KHALTI_BASE_URL: 'https://a.khalti.com/api/v2/',
        ESEWA_FORM_URL: 'https://uat.esewa.com.np/epay/main',
      }
      expect(load({ ...live, ...sandbox, ...other, PAYMENT_SANDBOX: 'true' }).payments.sandbox).toBe(true)
    })

    it('accepts them with PAYMENT_SANDBOX=true', () => {
      expect(load({ ...live, ...sandbox, PAYMENT_SANDBOX: 'true' }).payments).toMatchObject({
        sandbox: true,
        khalti: { baseUrl: 'https://dev.khalti.com/api/v2/' },
        esewa: { productCode: 'EPAYTEST' },
      })
    })
  })
})

describe('the fake provider', () => {
  it('is announced with a warning at start', async () => {
    const lines: string[] = []
    const t = { config: load({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }) }
    const database = fromSqlite(new SQLite(':memory:'))
    await migrateToLatest(database)
    const clock = new FakeClock()
    const tokens = createTokenSigner({ secret: t.config.jwtSecret, accessTtl: 900, refreshTtl: 3600, clock })
    const app = await buildApp(
      { config: t.config, database, clock, tokens, sms: new MemorySms() },
      { logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } } },
    )
    await app.ready()
    await app.close()
    await database.destroy()
    const warnings = lines.map((line) => JSON.parse(line) as { level: number; msg: string })
    expect(warnings).toContainEqual(
      expect.objectContaining({ level: 40, msg: expect.stringContaining('PAYMENT_PROVIDERS includes fake') }),
    )
  })
})

describe('CSP without eSewa', () => {
  const t = useTestApp('sqlite')

  it("keeps form-action at 'self' alone", async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/payments/fake/checkout/?ref=${'0'.repeat(32)}` })
    expect(String(response.headers['content-security-policy'])).toMatch(/form-action 'self'(;|$)/)
  })
})

describe('payment secrets in logs', () => {
  const KHALTI_KEY = 'live_secret_key_never_in_logs_0123456789'
  const ESEWA_KEY = 'esewa-secret-never-in-logs'
  const env: Record<string, string> = {
    PAYMENT_PROVIDERS: 'khalti,esewa',
    KHALTI_SECRET_KEY: KHALTI_KEY,
    ESEWA_SECRET_KEY: ESEWA_KEY,
    ESEWA_PRODUCT_CODE: 'EPAYTEST',
  }
  const t = useTestApp('sqlite', env)

  it('never contain the providers’ secret keys, even at trace level and when the providers fail', async () => {
    const khalti = await startFakeKhalti(KHALTI_KEY)
    const esewa = await startFakeEsewa('EPAYTEST', ESEWA_KEY)
    const lines: string[] = []
    let pidxSeen = ''
    try {
      const config = {
        ...t.config,
        payments: {
          ...t.config.payments,
          khalti: { ...t.config.payments.khalti, baseUrl: khalti.baseUrl },
          esewa: { ...t.config.payments.esewa, formUrl: esewa.formUrl, statusUrl: esewa.statusUrl },
        },
      }
      const app = await buildApp(
        { config, database: t.database, clock: t.clock, tokens: t.tokens, sms: t.sms },
        { logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } } },
      )
      const admin = await createUser(t.database, { is_admin: 1 })
      const plan = (
        await app.inject({
          method: 'POST',
          url: '/api/admin/plans/',
          headers: await bearerFor(t.tokens, admin),
          payload: { name: { en: 'Month' }, price_paisa: 50000, days: 30 },
        })
      ).json()
      const headers = await bearerFor(t.tokens, admin)
      const k = (
        await app.inject({
          method: 'POST',
          url: '/api/payments/',
          headers,
          payload: { plan_id: plan.id, provider: 'khalti' },
        })
      ).json()
      const e = (
        await app.inject({
          method: 'POST',
          url: '/api/payments/',
          headers,
          payload: { plan_id: plan.id, provider: 'esewa' },
        })
      ).json()
      const pidx = (pidxSeen = new URL(k.redirect.url).searchParams.get('pidx')!)
      khalti.settle(pidx, 'Completed', 1)
      await app.inject({ method: 'GET', url: `/api/payments/khalti/return/?pidx=${pidx}` })
      await app.inject({ method: 'GET', url: `/api/payments/esewa/return/${e.payment_id}/success/?data=Zm9yZ2Vk` })
      khalti.state.outage = 'down'
      await app.inject({
        method: 'POST',
        url: '/api/payments/',
        headers,
        payload: { plan_id: plan.id, provider: 'khalti' },
      })
      await app.close()
    } finally {
      await khalti.close()
      await esewa.close()
    }
    const log = lines.join('\n')
    expect(log).toContain('payment could not start')
    expect(log).toContain('bad signature')
    expect(log).not.toContain(KHALTI_KEY)
    expect(log).not.toContain(ESEWA_KEY)
    // The return routes' query strings: eSewa's signed data and Khalti's ids.
    expect(log).toContain('/api/payments/esewa/return/')
    expect(log).not.toContain('Zm9yZ2Vk')
    expect(log).not.toContain(`pidx=${pidxSeen}`)
  })
})
