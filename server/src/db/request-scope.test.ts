import type { FastifyRequest } from 'fastify'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import type { RequestScope } from './request-scope'

/** The tables a query names, from its operation tree. */
const tablesOf = (node: unknown) =>
  [...JSON.stringify(node).matchAll(/"kind":"TableNode".*?"name":"(\w+)"/g)].map((match) => match[1]!)

// docs/decisions/062 "A request's handle": every query a request builds goes through its scope, found by the
// request that runs it, however the service holds its database handle.
describe.each(dialects)('the request scope on %s', (dialect) => {
  const seen: { url: string; tables: string[] }[] = []
  const scopeOf = (request: FastifyRequest): RequestScope => ({
    requestId: request.id,
    transformQuery: (node) => {
      seen.push({ url: request.url, tables: tablesOf(node) })
      return node
    },
  })
  const t = useTestApp(dialect, {}, { requestScope: scopeOf })
  const call = requestsAs(t)

  it("passes each request's queries through that request's scope, and no query made outside a request", async () => {
    const learner = await createUser(t.database)
    seen.length = 0
    await t.db.selectFrom('notifications').select('id').execute()
    expect(seen).toEqual([])

    // Two requests at once, one of them with a body: each scope sees its own queries and none of the other's.
    const [results, read] = await Promise.all([
      call(learner, 'GET', '/api/results/progress/'),
      bearerFor(t.tokens, learner).then((headers) =>
        t.app.inject({ method: 'POST', url: '/api/notifications/read/', headers, payload: { all: true } }),
      ),
    ])
    expect([results.status, read.statusCode]).toEqual([200, 204])
    const tablesSeenBy = (url: string) => new Set(seen.filter((query) => query.url === url).flatMap((q) => q.tables))
    expect(tablesSeenBy('/api/notifications/read/').has('notifications')).toBe(true)
    expect(tablesSeenBy('/api/results/progress/').has('attempts')).toBe(true)
    expect(tablesSeenBy('/api/results/progress/').has('notifications')).toBe(false)
    expect(tablesSeenBy('/api/notifications/read/').has('attempts')).toBe(false)
  })
})
