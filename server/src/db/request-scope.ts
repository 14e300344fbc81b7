import { AsyncLocalStorage } from 'node:async_hooks'
import type { KyselyPlugin, RootOperationNode } from 'kysely'
import { TenantFilter } from './tenant-filter'

// The per-request database seam (docs/decisions/062 "A request's handle", 095): every query built while a request
// is served passes through that request's scope, with no service passing a handle down. With more than one institute
// the scope names the request's institute and every query is held to it here, in one place. A lone institute enters
// none: on Node 20 a scope costs every promise of every request a hook (docs/decisions/076).
export interface RequestScope {
  /** The request the queries serve (Fastify's request id), or the job's name. */
  requestId: string
  /** The institute whose rows alone the queries read and write (db/tenant-filter.ts); absent: every row. */
  institute?: number
  /** Rewrites each query of the request after the institute's filter (tests); absent: run as written. */
  transformQuery?: (node: RootOperationNode) => RootOperationNode
}

const scopes = new AsyncLocalStorage<RequestScope>()

/** Runs `work` (a request's handler and all it awaits) in the scope. */
export function inRequestScope<T>(scope: RequestScope, work: () => T): T {
  return scopes.run(scope, work)
}

/** Runs `work` outside any scope: a statement compiled once must not keep the institute it was first run for. */
export function outsideRequestScope<T>(work: () => T): T {
  return scopes.exit(work)
}

export const currentRequestScope = (): RequestScope | undefined => scopes.getStore()

/** The institute of the query being built, if a scope holds it to one. */
export const currentInstitute = (): number | undefined => scopes.getStore()?.institute

const filters = new Map<number, TenantFilter>()

function filterOf(institute: number) {
  let filter = filters.get(institute)
  if (!filter) {
    if (filters.size >= 10_000) filters.clear()
    filters.set(institute, (filter = new TenantFilter(institute)))
  }
  return filter
}

/**
 * On every database handle (database.ts), so a transaction and a handle a service kept from its construction alike
 * pass each query through the scope of the request running it. Statements compiled once (precompiled-query.ts) take
 * the institute as a parameter instead.
 */
export const requestScopePlugin: KyselyPlugin = {
  transformQuery({ node }) {
    const scope = scopes.getStore()
    if (!scope) return node
    const filtered =
      scope.institute === undefined ? node : (filterOf(scope.institute).transformNode(node) as typeof node)
    return scope.transformQuery ? scope.transformQuery(filtered) : filtered
  },
  async transformResult({ result }) {
    return result
  },
}
