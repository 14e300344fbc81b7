// npm run bench:live with BENCH_LIVE_NATIONAL=1: API.md "Live mocks", exam day at national scale (issue 60). Needs
// BENCH_DATABASE_URL (a PostgreSQL role that may create databases). Two app instances on two ports, each with its own
// data directory, share one fresh PostgreSQL database, as two machines would. BENCH_LIVE_LEARNERS (budget 20,000)
// registered learners fetch the paper ahead (skipped while the live-paper route answers 404), start evenly over the
// first BENCH_LIVE_START_SECONDS (60), autosave every answer in batches of BENCH_LIVE_BATCH (10) over a
// BENCH_LIVE_MINUTES (10) paper, and half never submit: the server finishes those at the end plus grace
// (BENCH_LIVE_GRACE_SECONDS, 30 here, 120 by default in the server). Reminders are pulled forward to the run (their
// rows' due time set to now): they and the results notice go through the queue. Prints starts p95, saves p99,
// acknowledged answers missing from the final scores, errors, wrong scores, the end to the final board, each reminder
// and result sent once, OTP codes made in the join window, and this load generator's own CPU use.
import os from 'node:os'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { call, machineLine, percentile, pgAdmin, postgresCpuByProcess, processCpuSeconds, startServer } from './lib.mjs'

const learnerCount = Number(process.env.BENCH_LIVE_LEARNERS ?? 20000)
const questionCount = Number(process.env.BENCH_LIVE_QUESTIONS ?? 100)
const durationMinutes = Number(process.env.BENCH_LIVE_MINUTES ?? 10)
const startSpreadMs = Number(process.env.BENCH_LIVE_START_SECONDS ?? 60) * 1000
const batch = Number(process.env.BENCH_LIVE_BATCH ?? 10)
const graceSeconds = Number(process.env.BENCH_LIVE_GRACE_SECONDS ?? 30)
// The join window holds the start spread and a slow start's answer.
const joinMinutes = Math.ceil(startSpreadMs / 60_000) + 1
const PASSWORD = 'Bench-pass-2026'
// BENCH_LIVE_INSTITUTES (default 1): with more, the mock is a national one (API.md "Institutes") that every institute
// takes part in, its learners spread evenly over them, each on its institute's host.
const instituteCount = Number(process.env.BENCH_LIVE_INSTITUTES ?? 1)
const BASE_DOMAIN = 'quiz.bench'
const slugs = Array.from({ length: instituteCount }, (_, k) => (k === 0 ? 'main' : `inst${k + 1}`))
const hostOf = (slug) => `${slug}.${BASE_DOMAIN}`
// Learner i is nat(i + 1), or with institutes the (i / N + 1)th of institute i % N.
const usernameOf = (i) =>
  instituteCount > 1 ? `i${(i % instituteCount) + 1}n${Math.floor(i / instituteCount) + 1}` : `nat${i + 1}`
const learnerLike = instituteCount > 1 ? 'i%n%' : 'nat%'
const adminUrl = process.env.BENCH_DATABASE_URL
if (!adminUrl) throw new Error('the national mode runs on PostgreSQL: set BENCH_DATABASE_URL')

const sleepUntil = (at) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())))
async function eachLimited(items, limit, work) {
  let next = 0
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++
        await work(items[index], index)
      }
    }),
  )
}
const p = (values, q) =>
  +percentile(
    [...values].sort((a, b) => a - b),
    q,
  ).toFixed(1)

const cpuBefore = process.cpuUsage()
const wallBefore = performance.now()
const database = `quiz_national_${process.pid}_${randomBytes(3).toString('hex')}`
await pgAdmin(adminUrl, `create database ${database}`)
const url = new URL(adminUrl)
url.pathname = `/${database}`
const env = {
  DATABASE_URL: url.toString(),
  SUBMIT_GRACE_SECONDS: String(graceSeconds),
  LIVE_ANNOUNCEMENT_INTERVAL_MS: '1000',
  DELIVERY_INTERVAL_MS: '1000',
  JWT_SECRET: randomBytes(32).toString('hex'),
  ...(instituteCount > 1 && { BASE_DOMAIN }),
}
const servers = []
console.log(await machineLine())
try {
  // One after the other: the first migrates the database.
  for (let n = 0; n < 2; n++)
    servers.push(await startServer({ env, dataDir: mkdtempSync(path.join(tmpdir(), `quiz-national-${n}-`)) }))
  const [a] = servers
  const base = (i) => servers[i % 2].baseUrl
  console.log(
    `national live mock: ${learnerCount} learners of ${instituteCount} institute(s), ${questionCount} questions, ${durationMinutes} min, grace ` +
      `${graceSeconds} s; two instances on ports ${servers.map((s) => s.port).join(' and ')} sharing PostgreSQL; ` +
      `${os.cpus().length} CPUs, load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}, Node ${process.versions.node}`,
  )
  const questions = Array.from({ length: questionCount }, (_, i) => ({
    text: { en: `National question ${i + 1}: what is ${i} + 1?`, ne: `प्रश्न ${i + 1}` },
    topic: 'arithmetic',
    options: [i + 1, i + 2, i + 3, i].map((value, j) => ({ text: { en: String(value), ne: '' }, is_correct: j === 0 })),
  }))
  // Each learner's institute host (none with one institute), quiz and paper: `right` is [{id, right, wrong}].
  const { learners, quizIds, nationalMockId, moveStart } = instituteCount > 1 ? await nationalSetUp() : await oneSetUp()
  const tokens = learners.map((learner) => learner.token)
  // A tenth of the learners asked for SMS reminders.
  await a.rows(`update users set sms_reminders = 1 where username like '${learnerLike}' and id % 10 = 0`)

  let setupErrors = 0
  let began = performance.now()
  await eachLimited(learners, 50, async ({ token, host, quizId }, i) => {
    const response = await call(base(i), 'POST', `/api/quizzes/${quizId}/register/`, { token, host })
    if (response.status !== 201) setupErrors++
  })
  console.log(`registered in ${((performance.now() - began) / 1000).toFixed(1)} s, ${setupErrors} errors`)

  // The day before: the paper ahead, where the route exists. It is offered from a day before the start
  // (LIVE_PAPER_AHEAD_MS), so the mock is first moved to 23 hours ahead; the move to the run's start comes after.
  await moveStart(Date.now() + 23 * 3_600_000)
  const probe = await call(a.baseUrl, 'GET', `/api/quizzes/${learners[0].quizId}/live-paper/`, {
    token: tokens[0],
    host: learners[0].host,
  })
  if (probe.status === 404) console.log('paper ahead: GET live-paper/ answers 404 here, step skipped')
  else {
    const paperMs = []
    let paperErrors = 0
    began = performance.now()
    await eachLimited(learners, 50, async ({ token, host, quizId }, i) => {
      const response = await call(base(i), 'GET', `/api/quizzes/${quizId}/live-paper/`, { token, host })
      paperMs.push(response.ms)
      if (response.status !== 200) paperErrors++
    })
    console.log(
      `paper ahead: ${learnerCount} fetched in ${((performance.now() - began) / 1000).toFixed(1)} s, p95 ` +
        `${p(paperMs, 95)} ms, ${paperErrors} errors (first answered ${probe.status})`,
    )
  }

  const leadMs = 20_000
  const startsAt = Date.now() + leadMs
  await moveStart(startsAt)
  // Both reminders pulled forward into the lead: moving the mock made none (their times had passed), so their rows
  // are written as the schedule writes them, due now.
  for (const quizId of quizIds)
    await a.rows(
      `insert into live_announcements (institute_id, quiz_id, kind, starts_at, due_at)
       select institute_id, id, kind, ${startsAt}, ${Date.now()} from quizzes,
         (values ('reminder_day'), ('reminder_quarter')) as kinds(kind) where id = ${quizId}`,
    )

  /** One institute: the admin's live quiz, moved with the admin's PATCH. */
  async function oneSetUp() {
    const admin = await a.seed({
      admin: 'natadmin',
      phone: '9700000001',
      learners: learnerCount,
      prefix: 'nat',
      password: PASSWORD,
    })
    const tokens = await a.tokensFor(Array.from({ length: learnerCount }, (_, i) => usernameOf(i)))
    const created = await call(a.baseUrl, 'POST', '/api/quizzes/create-from-json/', {
      token: admin,
      body: {
        title: { en: 'National live mock', ne: 'राष्ट्रिय लाइभ मक' },
        duration_minutes: durationMinutes,
        allowed_attempts: 1,
        questions,
        live: { starts_at: new Date(Date.now() + 3 * 86_400_000).toISOString(), join_minutes: 1 },
      },
    })
    if (created.status !== 201) throw new Error(`live quiz: ${created.status} ${JSON.stringify(created.body)}`)
    const quizId = created.body.quiz_id
    const paper = (await call(a.baseUrl, 'GET', `/api/admin/quizzes/${quizId}/`, { token: admin })).body
    const right = paper.questions.map((q) => ({ id: q.id, right: q.options[0].id, wrong: q.options[1].id }))
    return {
      learners: tokens.map((token) => ({ token, host: undefined, quizId, right })),
      quizIds: [quizId],
      nationalMockId: null,
      async moveStart(at) {
        const moved = await call(a.baseUrl, 'PATCH', `/api/admin/quizzes/${quizId}/`, {
          token: admin,
          body: { live: { starts_at: new Date(at).toISOString(), join_minutes: joinMinutes } },
        })
        if (moved.status !== 200) throw new Error(`moving the mock: ${moved.status} ${JSON.stringify(moved.body)}`)
      },
    }
  }

  /**
   * API.md "Institutes", national mocks: BENCH_LIVE_INSTITUTES institutes on their own hosts, learner i of institute
   * i % N; the platform's questions and mock, each institute taking part with its own copy. A copy cannot be moved
   * by its admins (409 national_mock_locked), so the schedule is moved in the database, as the PATCH would write it.
   */
  async function nationalSetUp() {
    const per = learnerCount / instituteCount
    if (!Number.isInteger(per)) throw new Error('BENCH_LIVE_LEARNERS must be a multiple of BENCH_LIVE_INSTITUTES')
    let since = performance.now()
    a.cli('create-admin', ['--platform', '--username', 'platform', '--password', PASSWORD, '--phone', '9700000002'])
    for (const [k, slug] of slugs.entries()) {
      if (k > 0) a.cli('create-institute', ['--slug', slug, '--name-en', `Institute ${k + 1}`])
      const phone = `97${String(10_000_000 + k).padStart(8, '0')}`
      a.cli('create-admin', [
        '--institute',
        slug,
        '--username',
        `adm${k + 1}`,
        '--password',
        PASSWORD,
        '--phone',
        phone,
      ])
      a.cli('create-learners', [
        '--institute',
        slug,
        '--count',
        String(per),
        '--prefix',
        `i${k + 1}n`,
        '--password',
        PASSWORD,
      ])
    }
    const tokensOf = await Promise.all(
      slugs.map((slug, k) =>
        a.tokensFor(
          [`adm${k + 1}`, ...Array.from({ length: per }, (_, j) => usernameOf(k + j * instituteCount))],
          slug,
        ),
      ),
    )
    console.log(
      `${instituteCount} institutes and their learners made in ${((performance.now() - since) / 1000).toFixed(1)} s`,
    )
    const platform = (
      await call(a.baseUrl, 'POST', '/api/token/', {
        host: BASE_DOMAIN,
        body: { username: 'platform', password: PASSWORD },
      })
    ).body.access
    const questionIds = []
    for (const question of questions) {
      const made = await call(a.baseUrl, 'POST', '/api/platform/bank/questions/', {
        token: platform,
        host: BASE_DOMAIN,
        body: question,
      })
      if (made.status !== 201) throw new Error(`platform question: ${made.status} ${JSON.stringify(made.body)}`)
      questionIds.push(made.body.id)
    }
    const mock = await call(a.baseUrl, 'POST', '/api/platform/national-mocks/', {
      token: platform,
      host: BASE_DOMAIN,
      body: {
        title: { en: 'National live mock', ne: 'राष्ट्रिय लाइभ मक' },
        duration_minutes: durationMinutes,
        live: { starts_at: new Date(Date.now() + 3 * 86_400_000).toISOString(), join_minutes: joinMinutes },
        sections: [{ items: questionIds.map((question_id) => ({ question_id })) }],
      },
    })
    if (mock.status !== 201) throw new Error(`national mock: ${mock.status} ${JSON.stringify(mock.body)}`)
    since = performance.now()
    const quizIds = []
    for (const [k, slug] of slugs.entries()) {
      const joined = await call(a.baseUrl, 'POST', `/api/admin/national-mocks/${mock.body.id}/join/`, {
        token: tokensOf[k][0],
        host: hostOf(slug),
      })
      if (joined.status !== 201) throw new Error(`joining: ${joined.status} ${JSON.stringify(joined.body)}`)
      quizIds.push(joined.body.quiz_id)
    }
    console.log(`${instituteCount} institutes took part in ${((performance.now() - since) / 1000).toFixed(1)} s`)
    // Each copy's paper, read in the database: its admins cannot before the common end.
    const rights = await Promise.all(
      quizIds.map(async (quizId) =>
        (
          await a.rows(
            `select i.question_id as id,
               (select min(o.id) from question_options o where o.revision_id = q.revision_id and o.is_correct = 1) as right_id,
               (select min(o.id) from question_options o where o.revision_id = q.revision_id and o.is_correct = 0) as wrong_id
             from paper_items i join paper_sections s on s.id = i.section_id join questions q on q.id = i.question_id
             where s.quiz_id = ${quizId} order by s.position, i.position`,
          )
        ).map((row) => ({ id: Number(row.id), right: Number(row.right_id), wrong: Number(row.wrong_id) })),
      ),
    )
    return {
      learners: Array.from({ length: learnerCount }, (_, i) => {
        const k = i % instituteCount
        return {
          token: tokensOf[k][1 + Math.floor(i / instituteCount)],
          host: hostOf(slugs[k]),
          quizId: quizIds[k],
          right: rights[k],
        }
      }),
      quizIds,
      nationalMockId: mock.body.id,
      async moveStart(at) {
        await a.rows(`update national_mocks set live_starts_at = ${at} where id = ${mock.body.id}`)
        await a.rows(`update quizzes set live_starts_at = ${at} where national_mock_id = ${mock.body.id}`)
        await a.rows(
          `delete from live_announcements where status = 'pending' and quiz_id in (${quizIds.join(', ')});
           insert into live_announcements (institute_id, quiz_id, kind, starts_at, due_at)
           select institute_id, id, 'results', ${at}, ${at + durationMinutes * 60_000} from quizzes
           where national_mock_id = ${mock.body.id}`,
        )
      },
    }
  }

  const endsAt = startsAt + durationMinutes * 60_000
  const joinEnds = startsAt + joinMinutes * 60_000

  // Learner i answers question q right when (i + q) % 3 is 0, wrongly when 1, leaves it when 2.
  const answerOf = (i, q) => {
    const { right } = learners[i]
    return [right[q].right, right[q].wrong, null][(i + q) % 3]
  }
  const phases = { start: [], save: [], submit: [] }
  const errors = { start: 0, save: 0, submit: 0 }
  const statuses = {}
  const acknowledged = Array.from({ length: learnerCount }, () => new Map())
  // When each request was sent (ms from the start) beside its time: where in the paper the slow ones were.
  const sentAt = { start: [], save: [], submit: [] }
  const record = (phase, response, ok) => {
    phases[phase].push(response.ms)
    sentAt[phase].push(Date.now() - response.ms - startsAt)
    if (!ok) {
      errors[phase]++
      const key = `${phase} ${response.status} ${JSON.stringify(response.body)?.slice(0, 80)}`
      statuses[key] = (statuses[key] ?? 0) + 1
    }
    return ok
  }
  // Each learner saves at even steps over their own time, from a phase of their own (a golden-ratio sequence: spread
  // evenly, the same every run). Without it every learner's k-th save fell at the same fraction of the time left, and
  // the later saves of all 20,000 converged on a few seconds (the tenth within 5.5 s: 3,600 a second against the
  // paper's 350), a storm no learners make (docs/scaling.md, run 4).
  const phaseOf = (i) => (i * 0.6180339887498949) % 1
  // A server shedding load answers 503 with Retry-After; the web app tries again as it would: the autosave queue
  // after Retry-After (up to five tries here), the submit after 1 s and 3 s (use-submit-attempt.ts). Each request's
  // time runs from its first try to its last answer; `shed` counts the 503s that were tried again.
  const shed = { save: 0, submit: 0 }
  const retries = { save: [1000, 1000, 1000, 1000], submit: [1000, 3000] }
  const asTheApp = async (phase, send) => {
    const first = performance.now()
    for (let attempt = 0; ; attempt++) {
      const response = await send()
      const delay = retries[phase][attempt]
      if (response.status !== 503 || delay === undefined) return { ...response, ms: performance.now() - first }
      shed[phase]++
      const retryAfter = phase === 'save' ? 1000 * Number(response.headers?.['retry-after'] ?? 0) : 0
      await new Promise((resolve) => setTimeout(resolve, Math.max(delay, retryAfter)))
    }
  }
  const answered = learners[0].right.map((_, q) => q)
  const batches = []
  for (let from = 0; from < answered.length; from += batch) batches.push(answered.slice(from, from + batch))
  const saveUntil = endsAt - 20_000
  const cpuRun = process.cpuUsage()
  const wallRun = performance.now()
  // Who had the cores in each 10-second window of the paper (from the start): each instance, PostgreSQL, this load
  // generator, and the host's steal and idle, in % of one core; printed beside the windows' requests.
  const machine = () => {
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
    return { idle: (ticks[3] + ticks[4]) / 100, steal: (ticks[7] ?? 0) / 100 }
  }
  const cpuNow = () => ({
    at: Date.now(),
    instances: servers.map((server) => processCpuSeconds(server.pid) ?? 0),
    postgres: postgresCpuByProcess(),
    generator: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
    machine: machine(),
  })
  const cpuSamples = []
  let samplerTimer
  const sample = () => {
    cpuSamples.push(cpuNow())
    samplerTimer = setTimeout(sample, Math.max(0, startsAt + cpuSamples.length * 10_000 - Date.now()))
  }
  samplerTimer = setTimeout(sample, Math.max(0, startsAt - Date.now()))
  await Promise.all(
    learners.map(async ({ token, host, quizId, right }, i) => {
      const at = startsAt + (i * startSpreadMs) / learnerCount
      await sleepUntil(at)
      const started = await call(base(i), 'GET', `/api/quizzes/${quizId}/`, { token, host })
      if (!record('start', started, started.status === 200 && started.body?.questions?.length === right.length)) return
      const attemptId = started.body.attempt.id
      const span = saveUntil - at
      for (const [k, part] of batches.entries()) {
        await sleepUntil(at + (span * (k + phaseOf(i))) / batches.length)
        const answers = Object.fromEntries(
          part.map((q) => [right[q].id, answerOf(i, q)]).filter(([, option]) => option !== null),
        )
        if (Object.keys(answers).length === 0) continue
        const response = await asTheApp('save', () =>
          call(base(i + 1), 'PUT', `/api/quizzes/${quizId}/answers/`, { token, host, body: { answers } }),
        )
        if (record('save', response, response.status === 200))
          for (const [question, option] of Object.entries(answers)) acknowledged[i].set(question, option)
      }
      if (i % 2 === 1) return
      await sleepUntil(endsAt - 15_000 + (i * 10_000) / learnerCount)
      const submitted = await asTheApp('submit', () =>
        // Only even learners submit: i / 2 alternates the instances (i would send every submit to the first).
        call(base(i / 2), 'POST', `/api/quizzes/${quizId}/submit/`, {
          token,
          host,
          body: { attempt_id: attemptId, answers: {} },
        }),
      )
      record('submit', submitted, submitted.status === 200)
    }),
  )
  const runCpu = process.cpuUsage(cpuRun)
  const runWall = performance.now() - wallRun
  clearTimeout(samplerTimer)
  cpuSamples.push(cpuNow()) // the last, shorter window's end
  // PostgreSQL's CPU from the start to the end, window by window, so that a backend alive at only one reading counts
  // too: the pools open most of theirs in the start minute, and readings at the two ends alone missed them (most of
  // PostgreSQL's time).
  const postgresUsedIn = (from, to) =>
    [...to.postgres].reduce((sum, [pid, used]) => sum + used - (from.postgres.get(pid) ?? 0), 0)
  const serverCpuUsed = servers.map((_, n) => cpuSamples.at(-1).instances[n] - cpuSamples[0].instances[n])
  let postgresCpuUsed = 0
  const postgresProcesses = new Set()
  for (let w = 0; w + 1 < cpuSamples.length; w++) {
    postgresCpuUsed += postgresUsedIn(cpuSamples[w], cpuSamples[w + 1])
    for (const pid of cpuSamples[w + 1].postgres.keys()) postgresProcesses.add(pid)
  }

  // The final boards: the end job's snapshots (one per institute's copy), whichever instance wrote them; the last.
  let boardMs = null
  let resultsMs = null
  const quizList = quizIds.join(', ')
  const settleBy = endsAt + graceSeconds * 1000 + 180_000
  while (Date.now() < settleBy && (boardMs === null || resultsMs === null)) {
    if (boardMs === null) {
      const rows = await a.rows(`select taken_at from leaderboard_snapshots where quiz_id in (${quizList})`)
      if (rows.length === quizIds.length) boardMs = Math.max(...rows.map((row) => Number(row.taken_at))) - endsAt
    }
    if (boardMs !== null && resultsMs === null) {
      const rows = await a.rows(
        `select status, sent_at from live_announcements where quiz_id in (${quizList}) and kind = 'results'`,
      )
      if (rows.length === quizIds.length && rows.every((row) => row.status === 'sent'))
        resultsMs = Math.max(...rows.map((row) => Number(row.sent_at))) - endsAt
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  // The national board, as a learner of each institute asks for it after the end (a new token: theirs may be old).
  let national = null
  if (nationalMockId !== null) {
    const askers = slugs.map((_, k) => learners[k])
    const fresh = await Promise.all(askers.map(async (learner, k) => (await a.tokensFor([usernameOf(k)], slugs[k]))[0]))
    const boards = await Promise.all(
      askers.map((learner, k) =>
        call(base(k), 'GET', `/api/national-mocks/${nationalMockId}/leaderboard/`, {
          token: fresh[k],
          host: learner.host,
        }),
      ),
    )
    national = {
      statuses: [...new Set(boards.map((board) => board.status))],
      participants: [...new Set(boards.map((board) => board.body?.participants))],
      p95: p(
        boards.map((board) => board.ms),
        95,
      ),
    }
  }

  // Every acknowledged answer in the final scores: the score the stored attempt has must be the acknowledged answers'.
  const attempts = await a.rows(
    `select u.username, t.status, t.score_hundredths, t.submitted from attempts t join users u on u.id = t.user_id
     where t.quiz_id in (${quizList})`,
  )
  const byUser = new Map(attempts.map((row) => [row.username, row]))
  const stored = await a
    .rows(
      `select u.username, a.question_id, a.option_id from attempt_answers a join attempts t on t.id = a.attempt_id
     join users u on u.id = t.user_id where t.quiz_id in (${quizList})`,
    )
    .catch(() => null)
  const storedBy = new Map()
  for (const row of stored ?? []) {
    if (!storedBy.has(row.username)) storedBy.set(row.username, new Map())
    storedBy.get(row.username).set(String(row.question_id), String(row.option_id))
  }
  let wrongScores = 0
  let unfinished = 0
  let missingAnswers = 0
  let acknowledgedTotal = 0
  // Each copy's question ids are its own: one map holds every institute's.
  const rightOf = new Map(learners.flatMap((learner) => learner.right).map((q) => [String(q.id), String(q.right)]))
  for (let i = 0; i < learnerCount; i++) {
    const attempt = byUser.get(usernameOf(i))
    if (!attempt) continue
    if (attempt.status !== 'finished') unfinished++
    let expected = 0
    for (const [question, option] of acknowledged[i]) {
      acknowledgedTotal++
      expected += rightOf.get(question) === String(option) ? 100 : -20
      if (stored && storedBy.get(usernameOf(i))?.get(question) !== String(option)) missingAnswers++
    }
    if (Number(attempt.score_hundredths) !== expected) wrongScores++
  }
  const count = async (sqlText) => Number((await a.rows(sqlText))[0].n)
  const told = await a.rows(
    `select kind, count(*) as n, count(distinct user_id) as users from notifications
     where ${quizIds.map((id) => `link like '%/${id}/%' or link like '%/${id}'`).join(' or ')}
     group by kind order by kind`,
  )
  const sms = await count(`select count(*) as n from deliveries where channel = 'sms'`)
  const smsSent = await count(
    `select count(*) as n from deliveries where channel = 'sms' and status = 'done' and attempts = 1`,
  )
  const smsReminders = await count(
    `select count(*) as n from users where sms_reminders = 1 and username like '${learnerLike}'`,
  )
  const otp = await count(`select count(*) as n from otp_codes where created_at between ${startsAt} and ${joinEnds}`)

  console.table([
    {
      phase: `starts over ${startSpreadMs / 1000} s`,
      requests: phases.start.length,
      'p50 ms': p(phases.start, 50),
      'p95 ms': p(phases.start, 95),
      'p99 ms': p(phases.start, 99),
      errors: errors.start,
    },
    {
      phase: `saves in batches of ${batch}`,
      requests: phases.save.length,
      'p50 ms': p(phases.save, 50),
      'p95 ms': p(phases.save, 95),
      'p99 ms': p(phases.save, 99),
      errors: errors.save,
    },
    {
      phase: 'submits (half the learners)',
      requests: phases.submit.length,
      'p50 ms': p(phases.submit, 50),
      'p95 ms': p(phases.submit, 95),
      'p99 ms': p(phases.submit, 99),
      errors: errors.submit,
    },
  ])
  // The 10-second windows of the paper where a phase's p99 went over its budget (starts: its p95's 1 s; saves 300 ms).
  for (const [phase, budget] of [
    ['start', 1000],
    ['save', 300],
  ]) {
    const windows = new Map()
    phases[phase].forEach((ms, index) => {
      const window = Math.floor(sentAt[phase][index] / 10_000)
      if (!windows.has(window)) windows.set(window, [])
      windows.get(window).push(ms)
    })
    const slow = [...windows]
      .sort(([a], [b]) => a - b)
      .filter(([, times]) => p(times, 99) > budget)
      .map(
        ([window, times]) =>
          `${window * 10}-${window * 10 + 10} s: ${times.length}, p50 ${p(times, 50)}, p99 ${p(times, 99)}`,
      )
    console.log(`${phase}s: windows over ${budget} ms at p99 (from the start): ${slow.join('; ') || 'none'}`)
  }
  // The windows with their requests and CPU: the first two minutes, the submits' and any whose starts or saves went
  // over budget.
  const requestsIn = (phase, window) =>
    phases[phase].filter((_, index) => Math.floor(sentAt[phase][index] / 10_000) === window)
  const cpuRows = []
  for (let w = 0; w + 1 < cpuSamples.length; w++) {
    const [from, to] = [cpuSamples[w], cpuSamples[w + 1]]
    const seconds = (to.at - from.at) / 1000
    const share = (used) => Math.round((100 * used) / seconds)
    const [starts, saves, submits] = ['start', 'save', 'submit'].map((phase) => requestsIn(phase, w))
    const slow = p(starts, 99) > 1000 || p(saves, 99) > 300
    if (w >= 12 && !slow && submits.length === 0) continue
    const cell = (times) => (times.length ? `${times.length} (${p(times, 99)})` : '')
    cpuRows.push({
      window: `${w * 10}-${w * 10 + 10} s`,
      'starts (p99 ms)': cell(starts),
      'saves (p99 ms)': cell(saves),
      'submits (p99 ms)': cell(submits),
      ...Object.fromEntries(servers.map((_, n) => [`instance ${n + 1} %`, share(to.instances[n] - from.instances[n])])),
      // Its processes alive at both readings and those begun within it (one that ended took its time with it).
      'PostgreSQL %': share(postgresUsedIn(from, to)),
      'generator %': share(to.generator - from.generator),
      'steal %': share(to.machine.steal - from.machine.steal),
      'idle %': share(to.machine.idle - from.machine.idle),
    })
  }
  console.log('requests and CPU (% of one core) by window: the first two minutes, the submits and the slow ones')
  console.table(cpuRows)
  console.log(`503s tried again as the app does: ${shed.save} saves, ${shed.submit} submits`)
  if (Object.keys(statuses).length > 0) console.log(`unexpected answers: ${JSON.stringify(statuses)}`)
  console.log(
    `acknowledged answers: ${acknowledgedTotal}; missing from the final attempts: ${stored ? missingAnswers : 'not read'}`,
  )
  console.log(`attempts: ${attempts.length}, not finished: ${unfinished}, wrong scores: ${wrongScores}`)
  console.log(
    `final board: ${boardMs === null ? 'NOT WRITTEN' : `${(boardMs / 1000).toFixed(1)} s after the end`} (grace ${graceSeconds} s)`,
  )
  console.log(
    `results notice: ${resultsMs === null ? 'NOT SENT' : `all sent ${(resultsMs / 1000).toFixed(1)} s after the end`}`,
  )
  for (const row of told)
    console.log(
      `notifications ${row.kind}: ${row.n} to ${row.users} learners (${Number(row.n) === (row.kind === 'live_reminder' ? 2 : 1) * Number(row.users) ? 'once each' : 'NOT once each'})`,
    )
  console.log(
    `SMS queued: ${sms}, sent once each: ${smsSent} (expected ${2 * smsReminders}: two reminders to the ${smsReminders} who asked); OTP codes in the join window: ${otp}`,
  )
  const cpuSeconds = (runCpu.user + runCpu.system) / 1e6
  const total = process.cpuUsage(cpuBefore)
  console.log(
    `load generator CPU: ${cpuSeconds.toFixed(1)} s over the ${(runWall / 1000).toFixed(0)} s paper ` +
      `(${((100 * cpuSeconds * 1000) / runWall).toFixed(0)} % of one core); whole run ` +
      `${((total.user + total.system) / 1e6).toFixed(1)} s over ${((performance.now() - wallBefore) / 1000).toFixed(0)} s; ` +
      `load now ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  )
  console.log(
    `instances' CPU over the paper: ${serverCpuUsed.map((s) => `${s.toFixed(1)} s`).join(' and ')}; PostgreSQL's ` +
      `${postgresCpuUsed.toFixed(1)} s; per request (starts, saves and submits together): ` +
      `${((1000 * serverCpuUsed.reduce((a, b) => a + b, 0)) / (phases.start.length + phases.save.length + phases.submit.length)).toFixed(2)} ms ` +
      `of the instances, ${((1000 * postgresCpuUsed) / (phases.start.length + phases.save.length + phases.submit.length)).toFixed(2)} ms of PostgreSQL`,
  )
  console.log(`PostgreSQL processes seen over the paper: ${postgresProcesses.size}`)
  const allErrors = errors.start + errors.save + errors.submit
  // Every institute's learner reads the same board, over every attempt counted (a submit or the end's finish).
  const nationalRight =
    national === null ||
    (national.statuses.length === 1 &&
      national.statuses[0] === 200 &&
      national.participants.length === 1 &&
      national.participants[0] === attempts.length)
  if (national)
    console.log(
      `national board after the end: HTTP ${national.statuses.join('/')}, participants ${national.participants.join('/')} ` +
        `(attempts ${attempts.length}), p95 ${national.p95} ms over ${instituteCount} institutes' learners`,
    )
  const met =
    nationalRight &&
    p(phases.start, 95) < 1000 &&
    p(phases.save, 99) < 300 &&
    allErrors === 0 &&
    wrongScores === 0 &&
    boardMs !== null &&
    boardMs <= (graceSeconds + 60) * 1000 &&
    otp === 0
  console.log(
    `${met ? 'met    ' : 'NOT MET'}  national live mock, ${learnerCount} learners of ${instituteCount} institute(s) on two instances: starts p95 ` +
      `${p(phases.start, 95)} ms (1,000), saves p99 ${p(phases.save, 99)} ms (300), ${allErrors} errors, ${wrongScores} wrong scores`,
  )
} finally {
  for (const server of servers) await server.stop()
  await pgAdmin(adminUrl, `drop database if exists ${database}`).catch(() => {})
}
