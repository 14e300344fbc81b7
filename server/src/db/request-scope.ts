import { AsyncLocalStorage } from 'node:async_hooks'
import type { KyselyPlugin, RootOperationNode } from 'kysely'

// The per-request database seam (docs/decisions/062 "A request's handle"); buildApp enters none yet (decision 076).
export interface RequestScope {
  requestId: string
  /** Rewrites each query of the request (a tenant's filter); absent: run as written. */
  transformQuery?: (node: RootOperationNode) => RootOperationNode
}

const scopes = new AsyncLocalStorage<RequestScope>()

export function inRequestScope<T>(scope: RequestScope, work: () => T): T {
  return scopes.run(scope, work)
}

export const currentRequestScope = (): RequestScope | undefined => scopes.getStore()

/** On every handle, so each query passes the running request's scope; precompiled statements are not rewritten. */
export const requestScopePlugin: KyselyPlugin = {
  transformQuery({ node }) {
    const scope = scopes.getStore()
    return scope?.transformQuery ? scope.transformQuery(node) : node
  },
  async transformResult({ result }) {
    return result
  },
}
