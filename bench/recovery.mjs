// npm run recovery [-- --only sigkill,postgres,sms --learners 200 --seconds 6]: what the server does when the machine,
// the database or the SMS gateway fails, with figures. Each scenario prints a table of what it saw:
//   sigkill   200 learners autosave and submit on SQLite; the server is killed with SIGKILL mid-load and restarted.
//             Every acknowledged autosave and submission must be in the database, every score right.
//   postgres  the same load on a throwaway PostgreSQL cluster (port 5433, made and removed here) that is stopped
//             mid-load and started again: the server must answer 503 while it is down (health: unreachable),
//             recover without a restart, lose no acknowledged write, and leave nothing half-done.
//   sms       an SMS gateway that refuses, answers too late, or hangs: registration codes must fail with a 503
//             sms_failed within SMS_TIMEOUT_MS, leave no valid code, and other routes must stay fast.
// Run by hand (about a minute), not in CI; through tsx, to reuse the tests' fake SMS gateway. Figures: docs/operations.md.
import { execFile, execFileSync } from 'node:child_process'
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs, promisify } from 'node:util'
import { FakeGateway } from '../server/test/fake-sms-gateway.ts'
import { call, percentile, quizJson, startServer } from './lib.mjs'

const { values: args } = parseArgs({
  options: {
    only: { type: 'string', default: 'sigkill,postgres,sms' },
    learners: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '6' },
  },
})
const LEARNERS = Number(args.learners)
const LOAD_MS = Number(args.seconds) * 1000
const QUESTIONS = 10
const PASSWORD = 'Recovery-pass-2026'
const raisedLimits = {
  RATE_LIMIT_OTP_PER_IP_HOUR: '100000000',
  RATE_LIMIT_OTP_PER_PHONE_HOUR: '100000000',
  RATE_LIMIT_ACCOUNT_PER_IP_HOUR: '100000000',
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const allScenarios = { sigkill, postgres, sms }

// --- the exam load and what it was told ------------------------------------------------------------------------

/** An administrator, LEARNERS learners, a 10-question quiz, the learners' tokens and each question's options. */
async function prepareExam(server) {
  const admin = await server.seed({
    admin: 'recoveryadmin',
    phone: '9700000009',
    learners: LEARNERS,
    prefix: 'examinee',
    password: PASSWORD,
  })
  const quizId = await server.createQuiz(admin, { ...quizJson(QUESTIONS, 'Recovery exam'), allowed_attempts: 1000 })
  const tokens = await server.tokensFor(Array.from({ length: LEARNERS }, (_, i) => `examinee${i + 1}`))
  const rows = await server.rows(
    `select q.id as question_id, o.id as option_id, o.is_correct from paper_items i
     join questions q on q.id = i.question_id join question_options o on o.revision_id = q.revision_id
     where i.quiz_id = ${quizId} and q.deleted_at is null order by i.position, o.position`,
  )
  const questions = []
  for (const row of rows) {
    let question = questions.find((q) => q.id === row.question_id)
    if (!question) questions.push((question = { id: row.question_id, correct: null, wrong: null }))
    if (Number(row.is_correct) === 1) question.correct = row.option_id
    else question.wrong ??= row.option_id
  }
  return { quizId, tokens, questions }
}

/** Learner l's choice for question k, the same in every round (a resumed attempt is sent the same answers again). */
const choose = (question, l, k) => ((l + k) % 3 === 0 ? question.wrong : question.correct)

/**
 * Every learner sits the quiz again and again: start (or resume), one autosave per question, submit with all its
 * answers. Records each acknowledged (200) autosave and submission, and every other outcome with the time it came.
 * Runs until `stop()` says so; a refused or failed request is retried by the next turn of the loop.
 */
function examLoad(baseUrl, { quizId, tokens, questions }, stop) {
  const ledger = { autosaves: [], submits: [], outcomes: [] }
  const note = (what, status) => ledger.outcomes.push({ what, status, at: performance.now() })
  const attempt = async (what, method, url, options) => {
    try {
      const response = await call(baseUrl, method, url, options)
      note(what, response.status)
      return response
    } catch (error) {
      note(what, error.code ?? 'error')
      return { status: 0 }
    }
  }
  const learner = async (token, l) => {
    while (!stop()) {
      const start = await attempt('start', 'GET', `/api/quizzes/${quizId}/`, { token })
      if (start.status !== 200) {
        await sleep(100)
        continue
      }
      const attemptId = start.body.attempt.id
      const answers = {}
      for (const [k, question] of questions.entries()) {
        if (stop()) return
        answers[question.id] = choose(question, l, k)
        const saved = await attempt('autosave', 'PUT', `/api/quizzes/${quizId}/answers/`, {
          token,
          body: { answers: { [question.id]: answers[question.id] } },
        })
        if (saved.status === 200)
          ledger.autosaves.push({ attemptId, questionId: question.id, optionId: answers[question.id] })
      }
      const correct = questions.filter((q) => answers[q.id] === q.correct).length
      const expected = correct * 100 - (questions.length - correct) * 20
      const submitted = await attempt('submit', 'POST', `/api/quizzes/${quizId}/submit/`, {
        token,
        body: { attempt_id: attemptId, answers },
      })
      if (submitted.status === 200)
        ledger.submits.push({ attemptId: submitted.body.attempt_id, score: submitted.body.score, expected })
      else ledger.refusedSubmits = [...(ledger.refusedSubmits ?? []), attemptId]
    }
  }
  ledger.done = Promise.all(tokens.map((token, l) => learner(token, l)))
  return ledger
}

/** Waits until the exam is well under way: half the learners have submitted once, and a while has passed. */
async function midExam(ledger) {
  const started = performance.now()
  while (ledger.submits.length < LEARNERS / 2 || performance.now() - started < LOAD_MS / 2) await sleep(50)
}

/** Compares what the learners were told with what the database holds, and checks every score and the rank tally. */
async function audit(server, quizId, questions, ledger) {
  const attempts = await server.rows(
    `select id, user_id, attempt_number, status, score_hundredths, correct, incorrect from attempts where quiz_id = ${quizId}`,
  )
  const answers = await server.rows(
    `select aa.attempt_id, aa.question_id, aa.option_id from attempt_answers aa
     join attempts a on a.id = aa.attempt_id where a.quiz_id = ${quizId}`,
  )
  const tally = await server.rows(
    `select score_hundredths, learners from first_attempt_scores where quiz_id = ${quizId}`,
  )
  const stored = new Map(answers.map((a) => [`${a.attempt_id}:${a.question_id}`, a.option_id]))
  const byId = new Map(attempts.map((a) => [a.id, a]))
  const correctOf = new Map(questions.map((q) => [q.id, q.correct]))

  const lostAutosaves = ledger.autosaves.filter((a) => stored.get(`${a.attemptId}:${a.questionId}`) !== a.optionId)
  const lostSubmits = ledger.submits.filter((s) => byId.get(s.attemptId)?.status !== 'finished')
  const wrongScores = ledger.submits.filter(
    (s) => Math.round(s.score * 100) !== s.expected || Number(byId.get(s.attemptId)?.score_hundredths) !== s.expected,
  )
  // Half-done: a finished attempt whose score is not its stored answers' score, or a rank tally that disagrees.
  let inconsistent = 0
  for (const a of attempts.filter((row) => row.status === 'finished')) {
    let correct = 0
    let incorrect = 0
    for (const q of questions) {
      const option = stored.get(`${a.id}:${q.id}`)
      if (option === undefined || option === null) continue
      if (option === correctOf.get(q.id)) correct++
      else incorrect++
    }
    if (Number(a.score_hundredths) !== correct * 100 - incorrect * 20) inconsistent++
  }
  const firstScores = new Map()
  for (const a of attempts.filter((row) => row.status === 'finished' && Number(row.attempt_number) === 1)) {
    firstScores.set(Number(a.score_hundredths), (firstScores.get(Number(a.score_hundredths)) ?? 0) + 1)
  }
  const tallyMatches =
    tally.length === firstScores.size &&
    tally.every((row) => firstScores.get(Number(row.score_hundredths)) === Number(row.learners))
  const refusedButFinished = (ledger.refusedSubmits ?? []).filter((id) => byId.get(id)?.status === 'finished').length
  return {
    'acknowledged autosaves': ledger.autosaves.length,
    'acknowledged submissions': ledger.submits.length,
    'autosaves lost': lostAutosaves.length,
    'submissions lost': lostSubmits.length,
    'wrong scores': wrongScores.length,
    'finished attempts': attempts.filter((a) => a.status === 'finished').length,
    'finished attempts not matching their answers': inconsistent,
    'rank tally matches first attempts': tallyMatches,
    'submissions without an answer that were applied': refusedButFinished,
  }
}

/** Counts of outcomes (status or socket error) per request kind, between two moments. */
function outcomesBetween(ledger, from, to) {
  const counts = {}
  for (const o of ledger.outcomes) {
    if (o.at < from || o.at >= to) continue
    const key = `${o.what} ${o.status}`
    counts[key] = (counts[key] ?? 0) + 1
  }
  return Object.entries(counts)
    .sort()
    .map(([key, n]) => `${key}: ${n}`)
    .join(', ')
}

const fiveHundreds = (ledger) => ledger.outcomes.filter((o) => o.status === 500).length

// --- scenario 1: SIGKILL on SQLite ---------------------------------------------------------------------------------

async function sigkill() {
  const server = await startServer({ env: raisedLimits })
  const exam = await prepareExam(server)
  let stopped = false
  const ledger = examLoad(server.baseUrl, exam, () => stopped)
  await midExam(ledger)
  const killedAt = performance.now()
  const killing = server.stop({ signal: 'SIGKILL', keepData: true })
  stopped = true
  const killed = await killing
  await ledger.done
  const restartStarted = performance.now()
  const again = await startServer({ env: server.env, dataDir: server.dataDir, port: server.port })
  const restartMs = Math.round(performance.now() - restartStarted)
  const result = await audit(again, exam.quizId, exam.questions, ledger)
  await again.stop()
  return {
    scenario: `SIGKILL mid-exam (SQLite, ${LEARNERS} learners)`,
    'server ended by': killed.signal,
    'requests cut by the kill': outcomesBetween(ledger, killedAt, Infinity) || 'none',
    'restart to healthy ms': restartMs,
    ...result,
    '500 answers': fiveHundreds(ledger),
  }
}

// --- scenario 2: PostgreSQL stopped and started mid-load -----------------------------------------------------------

/** A throwaway PostgreSQL cluster on `port` in a temp folder, run as the postgres OS user; removed by remove(). */
function throwawayCluster(port) {
  const version = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))[0]
  const bin = (name) => `/usr/lib/postgresql/${version}/bin/${name}`
  const dir = mkdtempSync(path.join(tmpdir(), 'quiz-recovery-pg-'))
  const data = path.join(dir, 'data')
  const runuser = (command, commandArgs) => ['-u', 'postgres', '--', bin(command), ...commandArgs]
  const asPostgres = (command, commandArgs) => execFileSync('runuser', runuser(command, commandArgs), { stdio: 'pipe' })
  // Stopping and starting run beside the load (a synchronous call would pause the learners too).
  const asPostgresAsync = (command, commandArgs) => promisify(execFile)('runuser', runuser(command, commandArgs))
  chownSync(
    dir,
    Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
    Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
  )
  let removed = false
  const cluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () =>
      asPostgresAsync('pg_ctl', [
        '-D',
        data,
        '-l',
        path.join(dir, 'log'),
        '-o',
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on`,
        '-w',
        'start',
      ]),
    /** Fast shutdown: sessions are ended (their open transactions roll back), as in a restart or failover. */
    stop: () => asPostgresAsync('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    remove() {
      if (removed) return
      removed = true
      try {
        asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      } catch {
        // not running
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
  // Removed however this script ends: normally, on an error, or on Ctrl-C or a kill.
  process.once('exit', () => cluster.remove())
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.once(signal, () => {
      cluster.remove()
      process.exit(130)
    })
  asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-instructions'])
  return cluster
}

async function postgres() {
  const cluster = throwawayCluster(5433)
  try {
    await cluster.start()
    const server = await startServer({
      env: { ...raisedLimits, DATABASE_URL: cluster.url, DATABASE_POOL_SIZE: '10' },
    })
    let exitedEarly = false
    server.exited.then(() => (exitedEarly = true))
    const exam = await prepareExam(server)
    let stopped = false
    const ledger = examLoad(server.baseUrl, exam, () => stopped)
    await midExam(ledger)

    const downAt = performance.now()
    const stopping = cluster.stop()
    const health = []
    const downFor = performance.now() + 3000
    while (performance.now() < downFor) {
      const answer = await call(server.baseUrl, 'GET', '/api/health').catch((error) => ({ status: error.code }))
      health.push(`${answer.status} ${answer.body?.database ?? ''}`.trim())
      await sleep(250)
    }
    await stopping
    const startAt = performance.now()
    await cluster.start()
    let recoveredAt
    for (;;) {
      if (exitedEarly) throw new Error(`the server process ended while the database was down:\n${server.stderr()}`)
      const answer = await call(server.baseUrl, 'GET', '/api/health').catch(() => ({ status: 0 }))
      if (answer.status === 200) {
        recoveredAt = performance.now()
        break
      }
      if (performance.now() - startAt > 60_000) throw new Error('the server did not recover within 60 s')
      await sleep(50)
    }
    await sleep(LOAD_MS / 2)
    stopped = true
    await ledger.done
    const result = await audit(server, exam.quizId, exam.questions, ledger)
    const healthSeen = [...new Set(health)].map((h) => `${h} (${health.filter((x) => x === h).length})`).join(', ')
    const report = {
      scenario: `PostgreSQL stopped ${Math.round((startAt - downAt) / 100) / 10} s mid-exam (${LEARNERS} learners)`,
      'health while down': healthSeen,
      'answers while down': outcomesBetween(ledger, downAt, startAt),
      'database started to healthy ms': Math.round(recoveredAt - startAt),
      'server process restarted': exitedEarly,
      ...result,
      '500 answers': fiveHundreds(ledger),
    }
    await server.stop()
    return report
  } finally {
    cluster.remove()
  }
}

// --- scenario 3: an SMS gateway that fails ----------------------------------------------------------------------

async function sms() {
  const timeoutMs = 2000
  const gateway = new FakeGateway()
  await gateway.start()
  const server = await startServer({
    env: { ...raisedLimits, SMS_PROVIDER: 'http', SMS_GATEWAY_URL: gateway.url(), SMS_TIMEOUT_MS: String(timeoutMs) },
  })
  const learnerToken = await server.seed({
    admin: 'smsadmin',
    phone: '9700000008',
    learners: 1,
    prefix: 'reader',
    password: PASSWORD,
  })
  const modes = [
    ['refuses (HTTP 503)', () => gateway.json(503, { error: 'down' })],
    [
      'answers after the timeout',
      () => (gateway.answer = (response) => setTimeout(() => response.writeHead(200).end(), timeoutMs + 3000)),
    ],
    ['hangs (never answers)', () => gateway.hang()],
  ]
  const rows = []
  try {
    for (const [index, [label, breakIt]] of modes.entries()) {
      breakIt()
      const phones = Array.from({ length: 20 }, (_, i) => `985${index}${String(i).padStart(6, '0')}`)
      let sending = true
      const others = []
      const otherRoutes = Array.from({ length: 10 }, async () => {
        while (sending) {
          const started = performance.now()
          await call(server.baseUrl, 'GET', '/api/quizzes/', { token: learnerToken })
          others.push(performance.now() - started)
        }
      })
      const sends = await Promise.all(
        phones.map((phone) =>
          call(server.baseUrl, 'POST', '/api/users/otp/send/', { body: { phone_number: phone, purpose: 'register' } }),
        ),
      )
      sending = false
      await Promise.all(otherRoutes)
      const codes = await server.rows(
        `select count(*) as n from otp_codes where phone_number in (${phones.map((p) => `'${p}'`).join(', ')})`,
      )
      const sorted = others.sort((a, b) => a - b)
      rows.push({
        scenario: `SMS gateway ${label}`,
        'registration answers': [...new Set(sends.map((s) => `${s.status} ${s.body?.code}`))].join(', '),
        'slowest refusal ms': Math.round(Math.max(...sends.map((s) => s.ms))),
        SMS_TIMEOUT_MS: timeoutMs,
        'codes left valid': Number(codes[0].n),
        'other routes meanwhile': `${sorted.length} requests, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`,
      })
    }
  } finally {
    await server.stop()
    await gateway.stop()
  }
  return rows
}

// --- run ---------------------------------------------------------------------------------------------------------

const chosen = args.only.split(',').map((name) => name.trim())
for (const name of chosen) {
  if (!allScenarios[name]) throw new Error(`unknown scenario "${name}" (choose from ${Object.keys(allScenarios)})`)
  console.log(`\n== ${name} ==`)
  const result = await allScenarios[name]()
  for (const row of [result].flat()) {
    console.table(Object.entries(row).map(([what, seen]) => ({ what, seen })))
  }
}
