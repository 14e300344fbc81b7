import { AsyncLocalStorage } from 'node:async_hooks'
import type { KyselyPlugin, RootOperationNode } from 'kysely'

// The per-request database seam (docs/decisions/062 "A request's handle"): every query built while a request is
// served passes through that request's scope, with no service passing a handle down. A tenant's scope (institutes, a
// later issue) rewrites the queries here, in one place. Until then buildApp enters none: on Node 20 a scope costs
// every promise of every request a hook, for nothing to rewrite (docs/decisions/076).
export interface RequestScope {
  /** The request the queries serve (Fastify's request id). */
  requestId: string
  /** Rewrites each query of the request (a tenant's filter); absent: run as written. */
  transformQuery?: (node: RootOperationNode) => RootOperationNode
}

const scopes = new AsyncLocalStorage<RequestScope>()

/** Runs `work` (a request's handler and all it awaits) in the scope. */
export function inRequestScope<T>(scope: RequestScope, work: () => T): T {
  return scopes.run(scope, work)
}

export const currentRequestScope = (): RequestScope | undefined => scopes.getStore()

/**
 * On every database handle (database.ts), so a transaction and a handle a service kept from its construction alike
 * pass each query through the scope of the request running it. Statements compiled once (precompiled-query.ts) were
 * built outside any request and are not rewritten: they are the budgeted routes' reads and writes by id.
 */
export const requestScopePlugin: KyselyPlugin = {
  transformQuery({ node }) {
    const scope = scopes.getStore()
    return scope?.transformQuery ? scope.transformQuery(node) : node
  },
  async transformResult({ result }) {
    return result
  },
}
