import { describe, expect, it } from 'vitest'
import { dialects } from './dialects'
import { useTestApp } from './test-app'

describe.each(dialects)('app basics on %s', (dialect) => {
  const t = useTestApp(dialect)

  it('answers the health check without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ status: 'ok', database: 'ok' })
    expect(response.headers['cache-control']).toBe('no-store')
  })

  it('answers unknown API paths with 404 in the error shape', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nope/' })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ detail: 'Not found.', code: 'not_found' })
  })

  it('serves the OpenAPI document', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' })
    expect(response.statusCode).toBe(200)
    expect(response.json().openapi).toMatch(/^3\./)
  })

  it('sends security headers, without forcing https on a plain-HTTP school network', async () => {
    // A JSON answer gets the REST set (decision 136), a page the page's.
    const json = await t.app.inject({ method: 'GET', url: '/api/health' })
    expect(json.headers['x-content-type-options']).toBe('nosniff')
    expect(json.headers['x-frame-options']).toBe('DENY')
    expect(json.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'")
    const response = await t.app.inject({ method: 'GET', url: `/api/payments/fake/checkout/?ref=${'0'.repeat(32)}` })
    expect(response.headers['content-type']).toMatch(/^text\/html/)
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN')
    const csp = String(response.headers['content-security-policy'])
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).not.toContain('upgrade-insecure-requests')
  })
})
