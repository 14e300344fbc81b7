// npm run bench:institutes: API.md "Institutes: many on one deployment", the budget. PostgreSQL, the server serving
// as an app role under row security (docs/operations.md "Database roles"), migrations run as the owner.
//  1. Many: BENCH_INSTITUTES (default 1,000) institutes of BENCH_LEARNERS learners (default 200) with BENCH_ATTEMPTS
//     finished attempts each (default 10, one at each of the institute's past papers), seeded with SQL in a fresh
//     database; the hot routes measured with each request's Host and token those of one of BENCH_SPREAD institutes
//     (default 100, spread evenly over them), so the server's connections switch institutes as they would.
//  2. One: the same bench on a fresh database of one institute of BENCH_LEARNERS learners: what that institute would
//     be on a deployment of its own. Each request does the same work in both (the same learner's attempts, the same
//     quiz's table): what differs is the database's size and the institutes' machinery. The ratio of the two. Its
//     requests are spread over BENCH_ONE_LEARNERS of its learners (default BENCH_SPREAD), each with the quiz started,
//     as the many's are over as many learners (BENCH_ONE_LEARNERS=1: all as one learner, as before 2026-11-29).
//     Both servers run side by side and each route is measured by turns, BENCH_ROUNDS rounds (default 3) of
//     BENCH_DURATION s a side, in the order many, one, then one, many: a machine whose speed drifts over the minutes
//     of a run (a neighbour, a busy disk) weighs on both sides alike, as it did not when one side ran after the other.
//  3. EXPLAIN, as the app role with app.institute_id set, of the results list and the admin's attempts table (the
//     queries as the server's filter writes them, decision 095): a Seq Scan, and the indexes on attempts it reads.
//  4. A new institute made by the CLI while the server of (1) runs: time until its host answers GET /api/institute/.
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) is a role that may create databases and
// roles and bypasses row security: it owns the fresh databases; BENCH_APP_ROLE (default quiz_bench_app) is made if
// missing (login, no superuser, no BYPASSRLS). BENCH_DURATION (s a round and side, default 5), BENCH_WARMUP (s of the same load first,
// unrecorded, default 3) and BENCH_CONNECTIONS (default 50).
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { SignJWT } from 'jose'
import pg from 'pg'
import { machineLine, pgAdmin, processCpuSeconds, quizJson, startServer } from './lib.mjs'

const institutes = Number(process.env.BENCH_INSTITUTES ?? 1000)
const learners = Number(process.env.BENCH_LEARNERS ?? 200)
const attemptsEach = Number(process.env.BENCH_ATTEMPTS ?? 10)
const spread = Math.min(institutes, Number(process.env.BENCH_SPREAD ?? 100))
const oneLearners = Number(process.env.BENCH_ONE_LEARNERS ?? spread)
const duration = Number(process.env.BENCH_DURATION ?? 5)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const warmup = Number(process.env.BENCH_WARMUP ?? 3)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const appRole = process.env.BENCH_APP_ROLE ?? 'quiz_bench_app'
const BASE_DOMAIN = 'bench.test'
const QUESTIONS = 20
const root = path.resolve(import.meta.dirname, '..')
const agent = new http.Agent({ keepAlive: true })

const slugOf = (n) => `i${String(n).padStart(4, '0')}`
const hostOf = (slug) => `${slug}.${BASE_DOMAIN}`
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`

if (!/^[a-z_][a-z0-9_]*$/.test(appRole)) throw new Error(`BENCH_APP_ROLE ${appRole}: not a plain role name`)
const roleExists = await pgAdmin(adminUrl, `select 1 from pg_roles where rolname = '${appRole}'`)
if (roleExists.rowCount === 0)
  await pgAdmin(adminUrl, `create role ${appRole} login nosuperuser nobypassrls nocreatedb nocreaterole`)

console.log(await machineLine())
const many = await openSide({ institutes, label: `${institutes} institutes` })
let one
let table
try {
  one = await openSide({ institutes: 1, label: '1 institute' })
  table = await hotRoutes(many, one)
  for (const side of [many, one]) await sideReport(side)
  many.plans = await explainReads(many.appUrl, many.tenants[0])
  many.fresh = await freshInstitute(many.server)
} finally {
  for (const side of [many, one]) await side?.close()
}

console.log(
  `\n${institutes.toLocaleString('en')} institutes x ${learners} learners x ${attemptsEach} attempts ` +
    `(${(institutes * learners).toLocaleString('en')} learners, ` +
    `${(institutes * learners * attemptsEach).toLocaleString('en')} attempts) against one institute of ${learners}; ` +
    `${connections} connections, ${rounds} rounds of ${duration} s a route and side, by turns, requests spread over ` +
    `${spread} institutes (p99: the worst round's):`,
)
const rows = table.map(({ many: row, one: alone }) => ({
  route: row.route,
  'many req/s': row['req/s'],
  'one req/s': alone['req/s'],
  'req/s ratio': +(row['req/s'] / alone['req/s']).toFixed(2),
  'CPU ms/req server, PG (many)': `${row['server CPU ms/req']}, ${row['PostgreSQL CPU ms/req']}`,
  'CPU ms/req server, PG (one)': `${alone['server CPU ms/req']}, ${alone['PostgreSQL CPU ms/req']}`,
  'many p50/p99 ms': `${row.p50} / ${row.p99}`,
  'one p50/p99 ms': `${alone.p50} / ${alone.p99}`,
  'errors (many, one)': `${row.errors}, ${alone.errors}`,
  'rounds req/s (many; one)': `${row.rounds}; ${alone.rounds}`,
}))
console.table(rows)
console.log('\nBudgets (API.md "Institutes", DESIGN.md):')
const check = (label, ok, figure) => console.log(`${ok ? 'met    ' : 'NOT MET'}  ${label}: ${figure}`)
// API.md: the hot routes (DESIGN.md's three) keep their budgets within 15 % of one institute; the two institute reads
// are held to their plans (below), their ratios shown in the table as figures.
for (const { many: row, one: alone } of table) {
  const ratio = row['req/s'] / alone['req/s']
  if (row.budgeted) {
    check(`${row.route}: within 15 % of one institute`, ratio >= 0.85, `${Math.round(100 * ratio)} % of its rate`)
    check(`${row.route}: p99 under 50 ms`, row.p99 < 50, `${row.p99} ms`)
  }
  check(`${row.route}: zero errors`, row.errors === 0, row.errors)
}
for (const plan of many.plans)
  check(
    `${plan.name}: no Seq Scan, attempts read by an index led by institute_id`,
    !plan.seqScan && plan.attemptIndexes.length > 0 && plan.attemptIndexes.every((index) => index.led),
    plan.attemptIndexes.map((index) => `${index.name} (${index.columns})`).join(', ') +
      (plan.seqScan ? '; Seq Scan' : '') || 'no index on attempts',
  )
check(
  'a new institute made by the CLI answers GET /api/institute/ in under 1 s, no restart',
  many.fresh.afterCli < 1000,
  `${Math.round(many.fresh.afterCli)} ms after the CLI exited (${Math.round(many.fresh.total)} ms with the CLI's own run)`,
)

/**
 * Seeds a fresh database of `count` institutes and serves it as the app role, its tenants prepared; `close` stops the
 * server and drops the database (kept with BENCH_KEEP).
 */
async function openSide({ institutes: count, label }) {
  const database = `quiz_bench_inst_${process.pid}_${randomBytes(3).toString('hex')}`
  await pgAdmin(adminUrl, `create database ${database}`)
  const ownerUrl = new URL(adminUrl)
  ownerUrl.pathname = `/${database}`
  const appUrl = new URL(ownerUrl)
  appUrl.username = appRole
  appUrl.password = ''
  const env = { DATABASE_URL: appUrl.toString(), DATABASE_OWNER_URL: ownerUrl.toString(), BASE_DOMAIN }
  let server
  const close = async () => {
    await server?.stop()
    if (!process.env.BENCH_KEEP) await pgAdmin(adminUrl, `drop database if exists ${database}`)
  }
  try {
    // The owner migrates (and grants the app role) before the seed, with the CLI every deployment has.
    await run(process.execPath, [path.join(root, 'server/dist/cli/migrate.js')], {
      ...process.env,
      ...env,
      DATABASE_URL: ownerUrl.toString(),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'quiz-bench-migrate-')),
      JWT_SECRET: randomBytes(32).toString('hex'),
    })
    const owner = new pg.Client({ connectionString: ownerUrl.toString() })
    await owner.connect()
    let t0 = performance.now()
    try {
      await seed(owner, count)
    } finally {
      await owner.end()
    }
    console.log(`${label}: seeded in ${seconds(performance.now() - t0)}`)
    server = await startServer({ env })
    const spreadHere = Math.min(count, spread)
    const chosen = Array.from({ length: spreadHere }, (_, j) =>
      spreadHere === 1 ? 1 : 1 + Math.round((j * (count - 1)) / (spreadHere - 1)),
    )
    t0 = performance.now()
    // The one institute's requests spread over as many of its learners as the many's over institutes: 50 connections
    // as one learner would find that learner's rows hot in every cache, and its autosaves queued on one attempt's row.
    const each = count === 1 ? Math.min(learners, oneLearners) : 1
    const tenants = await prepare(server, chosen, each)
    console.log(
      `${label}: ${tenants.length} learners started ${spreadHere} quizzes in ${seconds(performance.now() - t0)}`,
    )
    // The endpoint quizzes came after the seed's ANALYZE: planned on tables thought empty, their reads scanned.
    await pgAdmin(ownerUrl.toString(), 'analyze')
    await pgAdmin(ownerUrl.toString(), 'select pg_stat_reset()')
    return { label, database, ownerUrl: ownerUrl.toString(), appUrl: appUrl.toString(), server, tenants, close }
  } catch (error) {
    await close()
    throw error
  }
}

/** The tables the routes read whole, and how many rows: a read not held to its institute by an index shows here. */
async function sideReport(side) {
  const { rows: scanned } = await pgAdmin(
    side.ownerUrl,
    `select relname as table, seq_scan, seq_tup_read as rows_read, idx_scan from pg_stat_user_tables
     where seq_scan > 0 order by seq_tup_read desc limit 6`,
  )
  console.log(`${side.label}: tables read by sequential scans through the routes`)
  console.table(scanned)
}

/**
 * Institutes 1..count (slugs i0001...), each with `learners` learners, an admin and `attemptsEach` past papers that
 * each of its learners finished (no answers: neither measured read opens them). The attempts are written paper by
 * paper across every institute, as they would come in time, so one institute's rows lie all over the table.
 */
async function seed(client, count) {
  const now = Date.now()
  const learnerRows = count * learners
  const q = (text, values) => client.query(text, values)
  await q(`update institutes set slug = $1, name_en = 'Institute 1' where id = 1`, [slugOf(1)])
  await q(
    `insert into institutes (id, slug, name_en, created_at)
     select g, 'i' || lpad(g::text, 4, '0'), 'Institute ' || g, $2::bigint from generate_series(2, $1::int) g`,
    [count, now],
  )
  await q(`select setval('institutes_id_seq', (select max(id) from institutes))`)
  // Learner k of institute i is user (i - 1) * learners + k; institute i's admin is user learnerRows + i.
  await q(
    `insert into users (id, username, username_key, phone_number, password_hash, full_name, created_at)
     select (i - 1) * $2 + k, 'u' || i || '_' || k, 'u' || i || '_' || k, '97' || lpad(((i - 1) * $2 + k)::text, 8, '0'),
       '!', 'Learner ' || k, $3::bigint
     from generate_series(1, $1::int) i, generate_series(1, $2::int) k`,
    [count, learners, now],
  )
  await q(
    `insert into users (id, username, username_key, phone_number, password_hash, full_name, created_at)
     select $2 + i, 'a' || i, 'a' || i, '96' || lpad(i::text, 8, '0'), '!', 'Admin ' || i, $3::bigint
     from generate_series(1, $1::int) i`,
    [count, learnerRows, now],
  )
  await q(`select setval('users_id_seq', (select max(id) from users))`)
  await q(
    `insert into memberships (user_id, institute_id, is_learner, is_admin, created_at)
     select id, case when id > $2 then id - $2 else (id - 1) / $1 + 1 end, (id <= $2)::int, (id > $2)::int, $3::bigint
     from users`,
    [learners, learnerRows, now],
  )
  // Past paper p of institute i is quiz (i - 1) * attemptsEach + p.
  const day = 86_400_000
  await q(
    `insert into quizzes (id, institute_id, title_en, duration_minutes, start_time, allowed_attempts, difficulty,
       created_at, status)
     select (i - 1) * $2 + p, i, 'Past paper ' || p, 60, $3::bigint - ($2 - p + 1) * $4::bigint, 1, 'medium', $3::bigint,
       'published'
     from generate_series(1, $1::int) i, generate_series(1, $2::int) p`,
    [count, attemptsEach, now, day],
  )
  await q(`select setval('quizzes_id_seq', (select max(id) from quizzes))`)
  const correct = `((k * 7 + p * 13 + i) % 21)`
  await q(
    `insert into attempts (institute_id, user_id, quiz_id, attempt_number, status, started_at, deadline, revision_ids,
       finished_at, score_hundredths, correct, incorrect, unanswered, submitted)
     select i, (i - 1) * $2 + k, (i - 1) * $3 + p, 1, 'finished', $4::bigint - ($3 - p + 1) * $5::bigint,
       $4::bigint - ($3 - p + 1) * $5::bigint + 3600000, '[]', $4::bigint - ($3 - p + 1) * $5::bigint + 1800000, ${correct} * 100 - ((k + p) % 5) * 20, ${correct}, (k + p) % 5,
       20 - ${correct} - (k + p) % 5, 1
     from generate_series(1, $3::int) p, generate_series(1, $1::int) i, generate_series(1, $2::int) k`,
    [count, learners, attemptsEach, now, day],
  )
  await q('vacuum analyze')
}

/** Access tokens for institute `n`'s learner `k` (0: its admin), signed with the server's secret (decision 095). */
function tokenOf(server, n, k) {
  const key = new TextEncoder().encode(server.env.JWT_SECRET)
  const admin = k === 0
  return new SignJWT({
    token_type: 'access',
    user_id: admin ? server.instituteCount * learners + n : (n - 1) * learners + k,
    username: admin ? `a${n}` : `u${n}_${k}`,
    is_admin: admin,
    institute: slugOf(n),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('2h')
    .setJti(randomBytes(8).toString('hex'))
    .sign(key)
}

/**
 * For each chosen institute: a 20-question quiz made by its admin, started by its learners 1..`each`, its questions
 * read; a tenant for each learner.
 */
async function prepare(server, chosen, each) {
  server.instituteCount = Number((await server.rows('select count(*) as n from institutes where id > 0'))[0].n)
  const tenants = []
  for (const n of chosen) {
    const host = hostOf(slugOf(n))
    const admin = await tokenOf(server, n, 0)
    const learner = await tokenOf(server, n, 1)
    const made = await request(server, 'POST', '/api/quizzes/create-from-json/', {
      host,
      token: admin,
      body: quizJson(QUESTIONS, 'Endpoint quiz'),
    })
    if (made.status !== 201) throw new Error(`create-from-json on ${host}: ${made.status} ${JSON.stringify(made.body)}`)
    const quiz = made.body.quiz_id
    const started = await request(server, 'GET', `/api/quizzes/${quiz}/`, { host, token: learner })
    if (started.status !== 200) throw new Error(`start on ${host}: ${started.status} ${JSON.stringify(started.body)}`)
    const questions = []
    for (let q = 1; q <= QUESTIONS; q++)
      questions.push(
        (await request(server, 'GET', `/api/quizzes/${quiz}/question/${q}/`, { host, token: learner })).body,
      )
    tenants.push({ n, host, admin, learner, quiz, questions, pastPaper: (n - 1) * attemptsEach + 1 })
    for (let k = 2; k <= each; k++) {
      const other = await tokenOf(server, n, k)
      const start = await request(server, 'GET', `/api/quizzes/${quiz}/`, { host, token: other })
      if (start.status !== 200) throw new Error(`start on ${host}: ${start.status} ${JSON.stringify(start.body)}`)
      tenants.push({ ...tenants.at(-1), learner: other })
    }
  }
  return tenants
}

/**
 * DESIGN.md's hot routes and the two institute reads, each request on the next tenant's host with its token; each
 * route on both sides by turns, its figures summed over the rounds (p99: the worst round's).
 */
async function hotRoutes(many, one) {
  const routes = [
    { route: 'list quizzes (GET /api/quizzes/)', budgeted: true, method: 'GET', path: () => '/api/quizzes/' },
    {
      route: 'fetch a question (GET .../question/{n}/)',
      budgeted: true,
      method: 'GET',
      path: (t, i) => `/api/quizzes/${t.quiz}/question/${(i % QUESTIONS) + 1}/`,
    },
    {
      route: 'autosave (PUT .../answers/)',
      budgeted: true,
      method: 'PUT',
      path: (t) => `/api/quizzes/${t.quiz}/answers/`,
      body: (t, i) => {
        const question = t.questions[i % QUESTIONS]
        return JSON.stringify({ answers: { [question.id]: question.options[i % question.options.length].id } })
      },
    },
    { route: 'results list (GET /api/results/)', method: 'GET', path: () => '/api/results/' },
    {
      route: "admin's attempts table (GET /api/admin/quizzes/{id}/attempts/)",
      admin: true,
      method: 'GET',
      path: (t) => `/api/admin/quizzes/${t.pastPaper}/attempts/?page_size=50`,
    },
  ]
  const table = []
  for (const spec of routes) {
    const sums = new Map([many, one].map((side) => [side, []]))
    for (const side of [many, one]) {
      // Each request checked once before the load: a 404 or 400 under load would only be a count of errors.
      const tenant = side.tenants.at(-1)
      const probe = await request(side.server, spec.method, spec.path(tenant, 0), {
        host: tenant.host,
        token: spec.admin ? tenant.admin : tenant.learner,
        raw: spec.body?.(tenant, 0),
      })
      if (probe.status !== 200) throw new Error(`${spec.route}: ${probe.status} ${JSON.stringify(probe.body)}`)
      // Unrecorded, BENCH_WARMUP seconds (default 3) of the same load first: each worker reads each institute's
      // quizzes and papers once into its caches (1,100 quizzes over 100 institutes against 11 of one), which in a 5-10
      // s window was a good part of the many's database CPU; the figures are of a server that has served these
      // institutes.
      if (warmup > 0) await loadRoute(side, spec, warmup)
    }
    for (let round = 0; round < rounds; round++)
      for (const side of round % 2 === 0 ? [many, one] : [one, many])
        sums.get(side).push(await measureRoute(side, spec))
    const total = (side) => {
      const each = sums.get(side)
      const sum = (key) => each.reduce((acc, figures) => acc + figures[key], 0)
      const requests = sum('requests')
      return {
        route: spec.route,
        budgeted: spec.budgeted === true,
        requests,
        'req/s': Math.round(requests / sum('seconds')),
        p50: Math.max(...each.map((figures) => figures.p50)),
        p99: Math.max(...each.map((figures) => figures.p99)),
        'server CPU ms/req': +(sum('serverMs') / requests).toFixed(3),
        'PostgreSQL CPU ms/req': +(sum('postgresMs') / requests).toFixed(3),
        errors: sum('errors'),
        rounds: each.map((figures) => Math.round(figures.requests / figures.seconds)).join(' '),
      }
    }
    table.push({ many: total(many), one: total(one) })
  }
  return table
}

/** One spec's load on one side for `seconds`, each request the next tenant's. */
function loadRoute(side, spec, seconds) {
  let i = 0
  return autocannon({
    url: side.server.baseUrl,
    connections,
    duration: seconds,
    requests: [
      {
        method: spec.method,
        setupRequest: (req) => {
          const k = i++
          const t = side.tenants[k % side.tenants.length]
          return {
            ...req,
            path: spec.path(t, k),
            headers: {
              host: t.host,
              authorization: `Bearer ${spec.admin ? t.admin : t.learner}`,
              'content-type': 'application/json',
            },
            ...(spec.body && { body: spec.body(t, k) }),
          }
        },
      },
    ],
  })
}

/**
 * A round of one route on one side, with the CPU a request of the server and of this database's backends (the app
 * role's connections): what a route costs hardly moves with what else the machine runs, unlike its rate
 * (docs/performance.md).
 */
async function measureRoute(side, spec) {
  const backends = async () =>
    (
      await pgAdmin(
        side.ownerUrl,
        `select pid from pg_stat_activity where datname = '${side.database}' and usename = '${appRole}'`,
      )
    ).rows.map((row) => row.pid)
  const postgresCpu = (pids) => new Map(pids.map((pid) => [pid, processCpuSeconds(pid) ?? 0]))
  const postgresBefore = postgresCpu(await backends())
  const serverBefore = side.server.cpuSeconds()
  const result = await loadRoute(side, spec, duration)
  const serverMs = (side.server.cpuSeconds() - serverBefore) * 1000
  // A backend that the pool opened during the load counts from zero; one it closed is lost (rare under load).
  const after = postgresCpu(await backends())
  const postgresMs = [...after].reduce((sum, [pid, cpu]) => sum + cpu - (postgresBefore.get(pid) ?? 0), 0) * 1000
  return {
    requests: result.requests.total,
    seconds: duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    serverMs,
    postgresMs,
    errors: result.errors + result.timeouts + result.non2xx,
  }
}

/**
 * EXPLAIN as the app role, with app.institute_id set as the server sets it, of the two reads as the server's filter
 * writes them (results/results.repository.ts finishedAttemptsOf; institutions/reports.repository.ts pageChosenAttempts
 * and countChosenAttempts with `which=all`); server/src/db/institute-indexes.test.ts explains the real queries.
 */
async function explainReads(appUrl, tenant) {
  const client = new pg.Client({ connectionString: appUrl })
  await client.connect()
  try {
    await client.query(`select set_config('app.institute_id', $1, false)`, [String(tenant.n)])
    const indexes = new Map(
      (
        await client.query(
          `select indexname, indexdef from pg_indexes where schemaname = 'public' and tablename = 'attempts'`,
        )
      ).rows.map((row) => [row.indexname, /\((.*)\)/.exec(row.indexdef.replace(/ WHERE .*/, ''))[1]]),
    )
    const reads = [
      {
        name: 'results list',
        text: `select a.id, a.quiz_id, a.attempt_number, a.score_hundredths, a.finished_at, a.ranked, a.mode,
            q.title_en, q.title_ne
          from attempts as a inner join quizzes as q on q.id = a.quiz_id and q.institute_id = $2
          where (a.user_id = $1 and a.status = 'finished') and a.institute_id = $2
          order by a.quiz_id, a.attempt_number`,
        values: [(tenant.n - 1) * learners + 1, tenant.n],
      },
      {
        name: "admin's attempts table (a page)",
        text: `select c.id, c.user_id, c.attempt_number, c.started_at, c.finished_at, c.score_hundredths, c.correct,
            c.incorrect, c.unanswered, c.late, c.mode, u.username, u.full_name, u.phone_number
          from (select id, user_id, attempt_number, started_at, finished_at, score_hundredths, correct, incorrect,
              unanswered, late, mode, sections, revision_ids,
              row_number() over (partition by user_id order by score_hundredths desc, finished_at asc,
                attempt_number asc) as pick
            from attempts where (quiz_id = $1 and status = $2) and institute_id = $3) as c
          inner join users as u on u.id = c.user_id
          order by c.score_hundredths desc, c.finished_at asc, c.id asc limit $4 offset $5`,
        values: [tenant.pastPaper, 'finished', tenant.n, 50, 0],
      },
      {
        name: "admin's attempts table (its count)",
        text: `select count(*) as n from (select id, row_number() over (partition by user_id order by score_hundredths
            desc, finished_at asc, attempt_number asc) as pick
          from attempts where (quiz_id = $1 and status = $2) and institute_id = $3) as c`,
        values: [tenant.pastPaper, 'finished', tenant.n],
      },
    ]
    const plans = []
    for (const read of reads) {
      const { rows } = await client.query(`explain (format json) ${read.text}`, read.values)
      const nodes = []
      const walk = (node) => {
        nodes.push(node)
        for (const child of node.Plans ?? []) walk(child)
      }
      walk(rows[0]['QUERY PLAN'][0].Plan)
      // A Bitmap Index Scan names its index and no relation: the index's name says the table.
      const attemptIndexes = nodes
        .filter((node) => indexes.has(node['Index Name']))
        .map((node) => {
          const columns = indexes.get(node['Index Name'])
          return { name: node['Index Name'], columns, led: columns.startsWith('institute_id') }
        })
      const seqScan = nodes.some((node) => node['Node Type'] === 'Seq Scan')
      const scans = nodes.filter((node) => /Scan/.test(node['Node Type'])).map((node) => node['Node Type'])
      plans.push({ name: read.name, seqScan, attemptIndexes })
      console.log(
        `EXPLAIN ${read.name}: ${seqScan ? 'Seq Scan present' : 'no Seq Scan'}; attempts by ` +
          (attemptIndexes.map((index) => `${index.name} (${index.columns})`).join(', ') || 'no index') +
          `; scans: ${scans.join(', ')}`,
      )
    }
    return plans
  } finally {
    await client.end()
  }
}

/** Runs the create-institute CLI against the running server's database, then asks the new host until it answers. */
async function freshInstitute(server) {
  const slug = `fresh-${randomBytes(3).toString('hex')}`
  const started = performance.now()
  await run(
    process.execPath,
    [path.join(root, 'server/dist/cli/create-institute.js'), '--slug', slug, '--name-en', 'Fresh'],
    server.env,
  )
  const exited = performance.now()
  let answer
  for (;;) {
    answer = await request(server, 'GET', '/api/institute/', { host: hostOf(slug) })
    if (answer.status === 200 || performance.now() - exited > 10_000) break
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const answered = performance.now()
  if (answer.status !== 200) throw new Error(`${slug}: ${answer.status} after 10 s`)
  const fresh = { afterCli: answered - exited, total: answered - started, cli: exited - started }
  console.log(
    `new institute ${slug}: the CLI ran ${Math.round(fresh.cli)} ms; its host answered 200 ` +
      `${Math.round(fresh.afterCli)} ms after the CLI exited`,
  )
  return fresh
}

function run(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args[0]} exited ${code}: ${stderr}`))))
  })
}

/**
 * One request with a Host header of our choosing (the server picks the institute by it); a 503 (the server shedding
 * load, API.md "Operations") is asked again after a second, up to ten times: setup, not measurement.
 */
async function request(server, method, url, options) {
  for (let tries = 1; ; tries++) {
    const response = await requestOnce(server, method, url, options)
    if (response.status !== 503 || tries === 10) return response
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}

function requestOnce(server, method, url, { host, token, body, raw }) {
  const payload =
    raw !== undefined ? Buffer.from(raw) : body === undefined ? undefined : Buffer.from(JSON.stringify(body))
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.baseUrl}${url}`, {
      method,
      agent,
      headers: {
        host,
        ...(payload && { 'content-type': 'application/json', 'content-length': payload.length }),
        ...(token && { authorization: `Bearer ${token}` }),
      },
    })
    req.on('response', (res) => {
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let parsed
        try {
          parsed = text ? JSON.parse(text) : undefined
        } catch {
          parsed = text
        }
        resolve({ status: res.statusCode, body: parsed })
      })
    })
    req.on('error', reject)
    req.end(payload)
  })
}
