import { sql, type Kysely } from 'kysely'
import { describe, expect, it } from 'vitest'
import { inInstituteScope } from '../src/db/institute-jobs'
import type { DB } from '../src/db/schema'
import { countChosenAttemptsQuery, pageChosenAttemptsQuery } from '../src/institutions/reports.repository'
import { finishedAttemptsListQuery } from '../src/results/results.repository'
import { dialects } from './dialects'
import { useTestApp } from './test-app'

// API.md "Institutes", the budget (migration 0051, docs/decisions/104): with many institutes in one database, a
// learner's results list and an admin's attempts table read attempts by an index whose first column is institute_id.
// The queries explained are the repositories' own, through the app's handle in an institute's scope: the server's
// filter (decision 095) writes their institute condition, and row security (decision 098) holds the app role.
// PostgreSQL only: SQLite's planner is not what the budget is about, and it has no EXPLAIN of this shape.
describe.skipIf(!dialects.includes('postgres'))('institute-led indexes on postgres', () => {
  const t = useTestApp('postgres')
  const INSTITUTES = 12
  const LEARNERS = 20
  const PAPERS = 4

  /** Institutes 1..12, each with 20 learners who each finished its 4 papers: 960 attempts, one institute's among them. */
  async function seed() {
    await sql`insert into institutes (id, slug, name_en, created_at)
      select g, 'inst-' || g, 'Institute ' || g, 0 from generate_series(2, ${INSTITUTES}::int) g`.execute(t.db)
    await sql`insert into users (id, username, username_key, phone_number, password_hash, created_at)
      select (i - 1) * ${LEARNERS}::int + k, 'u' || i || '_' || k, 'u' || i || '_' || k,
        '97' || lpad(((i - 1) * ${LEARNERS}::int + k)::text, 8, '0'), '!', 0
      from generate_series(1, ${INSTITUTES}::int) i, generate_series(1, ${LEARNERS}::int) k`.execute(t.db)
    await sql`insert into quizzes (id, institute_id, title_en, duration_minutes, start_time, allowed_attempts,
        difficulty, created_at)
      select (i - 1) * ${PAPERS}::int + p, i, 'Paper ' || p, 60, 0, 1, 'medium', 0
      from generate_series(1, ${INSTITUTES}::int) i, generate_series(1, ${PAPERS}::int) p`.execute(t.db)
    await sql`insert into attempts (institute_id, user_id, quiz_id, attempt_number, status, started_at, deadline,
        revision_ids, finished_at, score_hundredths, correct, incorrect, unanswered, submitted)
      select i, (i - 1) * ${LEARNERS}::int + k, (i - 1) * ${PAPERS}::int + p, 1, 'finished', p, p + 3600000, '[]',
        p + 1800000, (k % 11) * 100, k % 11, 0, 10 - k % 11, 1
      from generate_series(1, ${PAPERS}::int) p, generate_series(1, ${INSTITUTES}::int) i,
        generate_series(1, ${LEARNERS}::int) k`.execute(t.db)
    await sql`analyze attempts`.execute(t.db)
  }

  /** The first column of each index on attempts, by the index's name, from pg_indexes. */
  async function leadingColumns() {
    const { rows } = await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes
      where schemaname = 'public' and tablename = 'attempts'`.execute(t.db)
    return new Map(rows.map((row) => [row.indexname, /\(\s*"?([a-z_]+)/.exec(row.indexdef)![1]!]))
  }

  interface PlanNode {
    'Node Type': string
    'Relation Name'?: string
    'Index Name'?: string
    Plans?: PlanNode[]
  }

  /** The plan of `query` as the app role runs it in institute 7's scope, sequential scans off for this transaction. */
  function planOf(query: (db: Kysely<DB>) => { explain: (format: 'json') => Promise<unknown[]> }) {
    return inInstituteScope('test', 7, () =>
      t.appDatabase.db.transaction().execute(async (trx) => {
        // On 960 rows a sequential scan is the cheapest: off, the planner shows which index it would read instead.
        await sql`set local enable_seqscan = off`.execute(trx)
        const [row] = (await query(trx).explain('json')) as { 'QUERY PLAN': [{ Plan: PlanNode }] }[]
        const nodes: PlanNode[] = []
        const walk = (node: PlanNode) => {
          nodes.push(node)
          for (const child of node.Plans ?? []) walk(child)
        }
        walk(row!['QUERY PLAN'][0].Plan)
        return nodes
      }),
    )
  }

  const learnerOfSeven = 6 * LEARNERS + 3
  const paperOfSeven = 6 * PAPERS + 2

  it.each([
    ['a learner’s results list', (db: Kysely<DB>) => finishedAttemptsListQuery(db, learnerOfSeven)],
    [
      'a page of an admin’s attempts table',
      (db: Kysely<DB>) => pageChosenAttemptsQuery(db, paperOfSeven, 'all', { limit: 50, offset: 0 }),
    ],
    ['the count of an admin’s attempts table', (db: Kysely<DB>) => countChosenAttemptsQuery(db, paperOfSeven, 'all')],
    [
      'an admin’s table of first attempts',
      (db: Kysely<DB>) => pageChosenAttemptsQuery(db, paperOfSeven, 'first', { limit: 50, offset: 0 }),
    ],
  ])('reads %s by an index on attempts led by institute_id', async (_name, query) => {
    await seed()
    const leading = await leadingColumns()
    const nodes = await planOf(query)
    // A bitmap scan names its index on a child with no relation: every index of attempts the plan reads counts.
    const attemptIndexes = nodes.map((node) => node['Index Name']).filter((name) => name && leading.has(name))
    expect(attemptIndexes.length).toBeGreaterThan(0)
    expect(attemptIndexes.map((name) => [name, leading.get(name!)])).toEqual(
      attemptIndexes.map((name) => [name, 'institute_id']),
    )
    expect(nodes.filter((node) => node['Relation Name'] === 'attempts' && /Seq Scan/.test(node['Node Type']))).toEqual(
      [],
    )
  })

  it('reads only institute 7’s rows through those queries', async () => {
    await seed()
    const list = await inInstituteScope('test', 7, () =>
      finishedAttemptsListQuery(t.appDatabase.db, learnerOfSeven).execute(),
    )
    expect(list.map((row) => row.quiz_id)).toEqual([25, 26, 27, 28])
    const count = await inInstituteScope('test', 7, () =>
      countChosenAttemptsQuery(t.appDatabase.db, paperOfSeven, 'all').executeTakeFirstOrThrow(),
    )
    expect(Number(count.n)).toBe(LEARNERS)
  })
})
