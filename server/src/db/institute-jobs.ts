import { sql } from 'kysely'
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
  { withWork }: { withWork?: WorkQuestion } = {},
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
  // Several: only those with work of the job's kind, asked in one statement (docs/decisions/121).
  const visited = withWork ? await institutesWithWork(database, withWork) : institutes.map(({ id }) => id)
  const results: T[] = []
  for (const id of visited) results.push(await inInstituteScope(job, id, () => work(id)))
  return results
}

/**
 * What a job asks before visiting institutes: its kind of work and the moment (with the mock ends' grace, and the
 * Nepal day of the daily set). The answer is a superset of the institutes whose pass would find something.
 */
export type WorkQuestion =
  | { job: 'owed_cards' | 'deliveries' | 'announcements'; now: number }
  | { job: 'mock_ends'; now: number; graceMs: number }
  | { job: 'daily'; now: number; today: string }

/**
 * The institutes with work of a kind due, oldest first. PostgreSQL: `institutes_with_work` (migration 0076) sets the
 * session to each institute in turn inside the database, as row security asks; SQLite: one read of every institute.
 */
export async function institutesWithWork(database: Database, question: WorkQuestion): Promise<number[]> {
  const graceMs = question.job === 'mock_ends' ? question.graceMs : 0
  const today = question.job === 'daily' ? question.today : ''
  const { now } = question
  return outsideRequestScope(async () => {
    if (database.dialect === 'postgres') {
      const { rows } = await sql<{ id: number }>`select institutes_with_work as id
        from institutes_with_work(${question.job}, ${now}, ${graceMs}, ${today})`.execute(database.db)
      return rows.map((row) => row.id)
    }
    // institute_id is no column of the schema's types (the filter adds it): SQL as text, as in migration 0076.
    const ids = async (query: ReturnType<typeof sql<{ institute_id: number }>>) =>
      (await query.execute(database.db)).rows.map((row) => row.institute_id)
    switch (question.job) {
      case 'owed_cards':
        return ids(sql`select distinct institute_id from owed_practice_cards order by institute_id`)
      case 'deliveries':
        return ids(sql`select distinct institute_id from deliveries
          where status = 'pending' and next_attempt_at <= ${now} order by institute_id`)
      case 'announcements':
        return ids(sql`select distinct institute_id from live_announcements
          where status = 'pending' and due_at <= ${now} order by institute_id`)
      case 'mock_ends':
        return ids(sql`select distinct q.institute_id from quizzes q
          left join leaderboard_snapshots s on s.quiz_id = q.id
          where q.deleted_at is null and q.status = 'published' and q.live_starts_at is not null
            and q.live_join_minutes is not null and q.live_starts_at + q.duration_minutes * 60000 + ${graceMs} < ${now}
            and (s.quiz_id is null or s.starts_at <> q.live_starts_at or s.due_at <= ${now})
          order by q.institute_id`)
      case 'daily':
        return ids(sql`select institute_id from daily_settings where enabled = 1
          union select institute_id from daily_days where day = ${today} and published_at is not null
          order by institute_id`)
    }
  })
}

export const sum = (counts: readonly number[]) => counts.reduce((total, count) => total + count, 0)
