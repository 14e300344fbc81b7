import { AsyncLocalStorage } from 'node:async_hooks'
import type { KyselyPlugin, RootOperationNode } from 'kysely'
import { FIRST_INSTITUTE_ID } from './tenancy'
import { TenantFilter } from './tenant-filter'

// The per-request database seam (decisions 062 "A request's handle", 095): with more than one institute the scope
// names the request's institute and every query is held to it here. A lone institute enters none (decision 076).
export interface RequestScope {
  /** The request the queries serve (Fastify's request id), or the job's name. */
  requestId: string
  /** The institute whose rows alone the queries read and write (db/tenant-filter.ts); absent: every row. */
  institute?: number
  /**
   * PostgreSQL: the institute the database session is set to when the filter is not applied (a lone institute,
   * decision 076); row security shows a session set to no institute no rows at all (docs/decisions/098).
   */
  sessionInstitute?: number
  /** Rewrites each query of the request after the institute's filter (tests); absent: run as written. */
  transformQuery?: (node: RootOperationNode) => RootOperationNode
}

const scopes = new AsyncLocalStorage<RequestScope>()

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

/** The institute PostgreSQL's row security holds the running work's statements to; absent: none (no rows). */
export function sessionInstitute(): number | undefined {
  const scope = scopes.getStore()
  return scope?.institute ?? scope?.sessionInstitute
}

/**
 * The institute a row inserted by SQL written as text belongs to: the filter does not rewrite such SQL, so it names
 * the column itself on SQLite (PostgreSQL's default is the session's institute, docs/decisions/098).
 */
export const instituteOfNewRows = (): number => sessionInstitute() ?? FIRST_INSTITUTE_ID

const filters = new Map<number, TenantFilter>()

function filterOf(institute: number) {
  let filter = filters.get(institute)
  if (!filter) {
    if (filters.size >= 10_000) filters.clear()
    filters.set(institute, (filter = new TenantFilter(institute)))
  }
  return filter
}

/** On every handle, so each query passes the running request's scope; precompiled statements bind the institute. */
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
