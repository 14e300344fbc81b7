import type { Database } from './database'
import { inRequestScope, outsideRequestScope } from './request-scope'
import { PLATFORM_INSTITUTE_ID } from './tenancy'

/**
 * Work outside any request (a job, a CLI command) on one institute's rows: its reads hold only that institute's, its
 * inserts carry it (db/tenant-filter.ts), and PostgreSQL's row security shows its session that institute alone.
 */
export function inInstituteScope<T>(job: string, institute: number, work: () => T): T {
  return inRequestScope({ requestId: job, institute }, work)
}

/** The deployment's institutes, oldest first (a table of the deployment's: no scope needed to read it). */
export function listInstitutes(database: Database) {
  return outsideRequestScope(() => database.db.selectFrom('institutes').select('id').orderBy('id').execute())
}

/**
 * Runs `work` once per institute, one after another, each in that institute's scope (docs/decisions/098). A lone
 * institute's runs as its requests do: unfiltered, and on SQLite unscoped, as before institutes (a first
 * AsyncLocalStorage scope would cost every request of the process its promise hooks, decision 076).
 */
export async function forEachInstitute<T>(
  database: Database,
  job: string,
  work: (institute: number) => Promise<T>,
): Promise<T[]> {
  const institutes = await listInstitutes(database)
  // The platform's bank's row (decision 101) is no institute: a deployment of one keeps the lone path below, while
  // with several the platform's rows (its bank's pictures) are visited too.
  const real = institutes.filter(({ id }) => id !== PLATFORM_INSTITUTE_ID)
  if (real.length === 1) {
    // As a lone institute's requests: no filter, and on PostgreSQL the session set to it for row security.
    const lone = real[0]!.id
    if (database.dialect === 'sqlite') return [await outsideRequestScope(() => work(lone))]
    return [await inRequestScope({ requestId: job, sessionInstitute: lone }, () => work(lone))]
  }
  const results: T[] = []
  for (const { id } of institutes) results.push(await inInstituteScope(job, id, () => work(id)))
  return results
}

export const sum = (counts: readonly number[]) => counts.reduce((total, count) => total + count, 0)
