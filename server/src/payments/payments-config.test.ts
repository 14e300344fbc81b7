import { describe, expect, it } from 'vitest'
import { createUser, bearerFor } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { buildApp } from '../app'
import { ConfigError, loadConfig } from '../config'
import { startFakeEsewa, startFakeKhalti } from '../../test/fake-gateways'

const base = { JWT_SECRET: 'x'.repeat(40), SMS_PROVIDER: 'http', SMS_GATEWAY_URL: 'https://sms.example.np/' }
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
})

describe('CSP without eSewa', () => {
  const t = useTestApp('sqlite')

  it("keeps form-action at 'self' alone", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' })
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
      const pidx = new URL(k.redirect.url).searchParams.get('pidx')!
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
  })
})
