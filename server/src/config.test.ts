import { describe, expect, it } from 'vitest'
import { useTestApp } from '../test/test-app'
import { ConfigError, loadConfig } from './config'

const SECRET = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'
const production = {
  NODE_ENV: 'production',
  JWT_SECRET: SECRET,
  SMS_PROVIDER: 'sparrow',
  SMS_GATEWAY_TOKEN: 'token',
  DATA_DIR: '/tmp/quiz-test-data',
}
const load = (env: Record<string, string>) => loadConfig(env, { persistSecret: false })
const refusal = (env: Record<string, string>) => {
  try {
    load(env)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as Error).message
  }
  throw new Error('the settings were accepted')
}

describe('TRUST_PROXY', () => {
  it('takes a hop count, or proxy addresses and CIDRs', () => {
    expect(load({}).trustProxy).toBe(false)
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false)
    expect(load({ TRUST_PROXY: '1' }).trustProxy).toBe(1)
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2)
    expect(load({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,loopback' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'loopback',
    ])
  })

  it('refuses true, which trusted every hop, naming the replacement', () => {
    expect(refusal({ TRUST_PROXY: 'true' })).toMatch(/TRUST_PROXY=true trusted every hop.*TRUST_PROXY=1/)
  })

  it('refuses what is neither a count nor an address', () => {
    expect(refusal({ TRUST_PROXY: 'nginx' })).toContain('"nginx" is neither a hop count nor an IP address or CIDR')
    expect(refusal({ TRUST_PROXY: '10.0.0.0/33' })).toContain('"10.0.0.0/33"')
  })
})

describe('production refusals', () => {
  it('accepts a random secret and https addresses', () => {
    const config = load({ ...production, PUBLIC_URL: 'https://quiz.example.np', SMS_GATEWAY_URL: 'https://sms.np/' })
    expect(config).toMatchObject({ env: 'production', jwtSecret: SECRET, apiDocs: false })
  })

  it.each([
    ['a repeated letter', 'x'.repeat(40)],
    ['a repeated word', 'password'.repeat(5)],
    ['a few characters in turn', 'abcd'.repeat(10)],
  ])('refuses %s as JWT_SECRET', (_label, secret) => {
    expect(refusal({ ...production, JWT_SECRET: secret })).toContain('JWT_SECRET looks guessable')
  })

  it('refuses http:// for PUBLIC_URL and the SMS gateway', () => {
    const message = refusal({ ...production, PUBLIC_URL: 'http://quiz.example.np', SMS_GATEWAY_URL: 'http://sms.np/' })
    expect(message).toContain('PUBLIC_URL must be an https:// address')
    expect(message).toContain('SMS_GATEWAY_URL must be an https:// address')
  })

  it('accepts the same outside production', () => {
    expect(load({ JWT_SECRET: 'x'.repeat(40), PUBLIC_URL: 'http://localhost:3000' }).jwtSecret).toBe('x'.repeat(40))
  })
})

describe('the API document', () => {
  it('is served outside production, and in production only with API_DOCS', () => {
    expect(load({}).apiDocs).toBe(true)
    expect(load(production).apiDocs).toBe(false)
    expect(load({ ...production, API_DOCS: 'true' }).apiDocs).toBe(true)
  })

  describe('with API_DOCS=false', () => {
    const t = useTestApp('sqlite', { API_DOCS: 'false' })

    it('answers 404 at /api/docs', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(404)
      expect((await t.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBe(404)
    })
  })
})
