import { describe, expect, it } from 'vitest'
import { bearerFor, createUser } from '../test/factories'
import { useTestApp } from '../test/test-app'

// A test replaces a service through buildApp's `services` option; that only works while every route takes its
// services from the composition root (services.ts) rather than building its own.
describe('a service replaced through buildApp', () => {
  const calls: string[] = []
  const replacedFacets = { topics: [], tags: [{ tag: 'replaced', total: 1 }], sources: [], total: 1 }
  const t = useTestApp(
    'sqlite',
    {},
    {
      services: (built) => ({
        payments: {
          ...built.payments,
          providers: async () => (calls.push('providers'), ['khalti' as const]),
          listForAdmin: (status, page) => (calls.push('admin list'), built.payments.listForAdmin(status, page)),
        },
        admin: { ...built.admin, bank: { ...built.admin.bank, facets: async () => replacedFacets } },
      }),
    },
  )

  it('is the one the learners’ and the admins’ routes call', async () => {
    const learner = await bearerFor(t.tokens, await createUser(t.database))
    const admin = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))

    const providers = await t.app.inject({ method: 'GET', url: '/api/payments/providers/', headers: learner })
    expect(providers.json()).toEqual(['khalti'])
    const payments = await t.app.inject({ method: 'GET', url: '/api/admin/payments/', headers: admin })
    expect(payments.json()).toMatchObject({ count: 0, results: [] })
    expect(calls).toEqual(['providers', 'admin list'])

    const facets = await t.app.inject({ method: 'GET', url: '/api/admin/bank/facets/', headers: admin })
    expect(facets.json()).toEqual(replacedFacets)
  })
})
