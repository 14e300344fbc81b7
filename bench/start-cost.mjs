// node bench/start-cost.mjs: what one attempt start costs in CPU, on the server's side and the database's, read from
// /proc around BENCH_START_COST_LEARNERS (default 3,000) first starts of a 100-question paper, BENCH_START_COST_AT_ONCE
// (default 16) at a time. CPU time, unlike latency, hardly moves with what else the machine runs, so this compares
// two versions of the start on a busy machine where a storm's p95 cannot. SQLite by default; BENCH_DATABASE_URL runs
// it on a fresh PostgreSQL database, and then the database's share is its backends' CPU for this database.
// BENCH_COST=submit measures the submits of those attempts instead (each with two answers in three, one in three of
// them wrong), the starts made beforehand; BENCH_COST=question or autosave, ten question fetches or one-answer
// autosaves by each learner of an attempt in progress (issue 62: the hot routes' CPU where the machine is too busy for
// their rates to compare). BENCH_COST_PAPER=mixed takes the mixed paper (below).
import { readFileSync, readdirSync } from 'node:fs'
import pg from 'pg'
import { answerFor, call, machineLine, mixedQuizJson, startServer } from './lib.mjs'

const learnerCount = Number(process.env.BENCH_START_COST_LEARNERS ?? 3000)
const atOnce = Number(process.env.BENCH_START_COST_AT_ONCE ?? 16)
const measured = ['submit', 'question', 'autosave'].includes(process.env.BENCH_COST) ? process.env.BENCH_COST : 'start'
const PER_LEARNER = measured === 'question' || measured === 'autosave' ? 10 : 1
const TICK_MS = 10 // USER_HZ is 100 on Linux
// BENCH_COST_PAPER=mixed: the bench's mixed paper (passages, several right options, numbers: bench/lib.mjs) instead
// of 100 one-answer questions, its answers of each question's type (issue 77: what the types add to a request).
const mixed = process.env.BENCH_COST_PAPER === 'mixed'

/** User and system CPU time of a process, in milliseconds, or 0 once it is gone. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return { user: Number(fields[11]) * TICK_MS, system: Number(fields[12]) * TICK_MS }
  } catch {
    return { user: 0, system: 0 }
  }
}

function descendants(pid) {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  )
  return [pid, ...children.flatMap(descendants)]
}

console.log(await machineLine())
const server = await startServer()
let backends = async () => []
if (server.dialect === 'postgres') {
  const database = new URL(server.env.DATABASE_URL).pathname.slice(1)
  backends = async () => {
    const client = new pg.Client({ connectionString: process.env.BENCH_DATABASE_URL })
    await client.connect()
    try {
      const { rows } = await client.query('select pid from pg_stat_activity where datname = $1', [database])
      return rows.map((row) => row.pid)
    } finally {
      await client.end()
    }
  }
}
try {
  const admin = await server.seed({
    admin: 'costadmin',
    phone: '9700000002',
    learners: learnerCount,
    prefix: 'cost',
    password: 'Bench-pass-2026',
  })
  const tokens = await server.tokensFor(Array.from({ length: learnerCount }, (_, i) => `cost${i + 1}`))
  const quizId = await server.createQuiz(
    admin,
    mixed
      ? mixedQuizJson(100, 'Start cost')
      : {
          title: { en: 'Start cost', ne: 'सुरु' },
          duration_minutes: 60,
          allowed_attempts: 1,
          questions: Array.from({ length: 100 }, (_, i) => ({
            text: { en: `Question ${i + 1}`, ne: `प्रश्न ${i + 1}` },
            options: [0, 1, 2, 3].map((j) => ({ text: { en: `Option ${j}`, ne: '' }, is_correct: j === 0 })),
          })),
        },
  )
  // One start first, so that every process holds the paper, as on exam day a minute in.
  for (const token of tokens.splice(0, 4)) await call(server.baseUrl, 'GET', `/api/quizzes/${quizId}/`, { token })

  // The submits' answers: the same paper for everyone, its options in the order written (the first is right).
  const answers = {}
  const firstOptions = []
  if (measured !== 'start') {
    for (const token of tokens) await call(server.baseUrl, 'GET', `/api/quizzes/${quizId}/`, { token })
    for (let number = 1; number <= 100; number++) {
      const question = await call(server.baseUrl, 'GET', `/api/quizzes/${quizId}/question/${number}/`, {
        token: tokens[0],
      })
      if (number % 3 !== 2) answers[question.body.id] = answerFor(question.body, number)
      firstOptions.push({ [question.body.id]: answerFor(question.body, 0) })
    }
  }
  const request = (token, k) =>
    measured === 'submit'
      ? call(server.baseUrl, 'POST', `/api/quizzes/${quizId}/submit/`, { token, body: { answers } })
      : measured === 'question'
        ? call(server.baseUrl, 'GET', `/api/quizzes/${quizId}/question/${k + 1}/`, { token })
        : measured === 'autosave'
          ? call(server.baseUrl, 'PUT', `/api/quizzes/${quizId}/answers/`, {
              token,
              body: { answers: firstOptions[k] },
            })
          : call(server.baseUrl, 'GET', `/api/quizzes/${quizId}/`, { token })
  // Round by round (every learner's first request, then every second one): a learner's own requests come one after
  // another, as a real learner's autosaves do, not ten at once.
  const requests = Array.from({ length: PER_LEARNER }, (_, k) => tokens.map((token) => [token, k])).flat()

  // PostgreSQL: the row counts autovacuum would have taken within its first minute. Tables filled a moment ago have
  // none (reltuples -1), and the planner's guesses then read an attempt by id through the in-progress index, every
  // attempt in progress filtered at each save.
  if (server.dialect === 'postgres') {
    const owner = new URL(server.env.DATABASE_OWNER_URL ?? server.env.DATABASE_URL)
    const client = new pg.Client({ connectionString: owner.toString() })
    await client.connect()
    await client.query('analyze').finally(() => client.end())
  }
  // A pause, so that a profile (BENCH_NODE_ARGS="--cpu-prof ...") shows the measured requests as a part of their own.
  await new Promise((resolve) => setTimeout(resolve, 300))
  const serverPids = descendants(server.pid)
  const before = new Map([...serverPids, ...(await backends()), process.pid].map((pid) => [pid, cpuMs(pid)]))
  const started = performance.now()
  let next = 0
  let errors = 0
  await Promise.all(
    Array.from({ length: atOnce }, async () => {
      while (next < requests.length) {
        const [token, k] = requests[next++]
        const response = await request(token, k)
        if (response.status !== 200) errors++
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  const atEnd = new Map(serverPids.map((pid) => [pid, cpuMs(pid)]))
  // BENCH_COST_SETTLE_MS: also the server's CPU after this long idle, for work a request leaves to a background pass
  // (decision 080: a submit's practice cards), so that what moved out of the request is still counted.
  const settleMs = Number(process.env.BENCH_COST_SETTLE_MS ?? 0)
  if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs))
  const spentBetween = (pids, from, to) =>
    pids.reduce(
      (sum, pid) => {
        const now = to?.get(pid) ?? cpuMs(pid)
        const then = from.get(pid) ?? { user: 0, system: 0 }
        return { user: sum.user + now.user - then.user, system: sum.system + now.system - then.system }
      },
      { user: 0, system: 0 },
    )
  const spent = (pids) => spentBetween(pids, before)
  // "user + system" per request measured: the system share is mostly the loopback TCP of each request and statement.
  const perRequest = ({ user, system }) =>
    `${((user + system) / requests.length).toFixed(3)} (${(user / requests.length).toFixed(3)} + ${(system / requests.length).toFixed(3)})`
  console.table([
    {
      database: server.dialect,
      WORKERS: process.env.WORKERS ?? 1,
      [`${measured}s`]: requests.length,
      errors,
      [`${measured}s/s`]: Math.round(requests.length / seconds),
      [`server CPU ms/${measured} (user + system)`]: perRequest(spentBetween(serverPids, before, atEnd)),
      ...(settleMs > 0 && { [`with ${settleMs} ms after`]: perRequest(spent(serverPids)) }),
      [`database CPU ms/${measured}`]:
        server.dialect === 'postgres' ? perRequest(spent(await backends())) : '(in the server)',
      [`load generator CPU ms/${measured}`]: perRequest(spent([process.pid])),
    },
  ])
} finally {
  await server.stop()
}
