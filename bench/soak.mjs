// npm run soak -- --node 24 --minutes 3: drives the built server (SQLite, one process) on a chosen Node.js line through
// every write path for a few minutes, then stops it with SIGTERM, and prints the requests served, the unexpected
// answers, the memory, and whether the process stayed alive and stopped cleanly (exit code 0, no signal, no abort).
// --node takes a major line (installed from the npm registry by .ci/node-line) or a path to a node binary.
// Run by hand, not in CI: it is a check of the runtime under sustained load, not a test.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { call, quizJson, startServer } from './lib.mjs'

const { values: args } = parseArgs({
  options: {
    node: { type: 'string', default: process.execPath },
    minutes: { type: 'string', default: '3' },
    learners: { type: 'string', default: '16' },
  },
})
const root = path.resolve(import.meta.dirname, '..')
const node = /^\d+$/.test(args.node)
  ? path.join(execFileSync(path.join(root, '.ci/node-line'), [args.node], { encoding: 'utf8' }).trim(), 'node')
  : args.node
const nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()
const seconds = Number(args.minutes) * 60
const concurrentLearners = Number(args.learners)
const PASSWORD = 'Soak-pass-2026'

const server = await startServer({
  node,
  env: {
    RATE_LIMIT_OTP_PER_IP_HOUR: '100000000',
    RATE_LIMIT_ACCOUNT_PER_IP_HOUR: '100000000',
    RATE_LIMIT_REFRESH_PER_IP_HOUR: '100000000',
  },
})
const stats = new Map() // path -> {requests, unexpected}
let aliveThroughout = true
server.exited.then(() => {
  if (!stopping) aliveThroughout = false
})
let stopping = false

/** One request; counts it under `name`, and as unexpected unless its status is one of `expected`. */
async function hit(name, method, url, options, expected = [200]) {
  const entry = stats.get(name) ?? { requests: 0, unexpected: 0 }
  stats.set(name, entry)
  entry.requests++
  try {
    const response = await call(server.baseUrl, method, url, options)
    if (!expected.includes(response.status)) {
      entry.unexpected++
      if (entry.unexpected <= 3) console.error(`${name}: ${response.status} ${JSON.stringify(response.body)}`)
    }
    return response
  } catch (error) {
    entry.unexpected++
    if (entry.unexpected <= 3) console.error(`${name}: ${error.message}`)
    return { status: 0, body: undefined }
  }
}

function rssMiB() {
  try {
    const line = readFileSync(`/proc/${server.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)
    return line ? Math.round(Number(line[1]) / 1024) : undefined
  } catch {
    return undefined
  }
}

const admin = await server.seed({
  admin: 'soakadmin',
  phone: '9700000001',
  learners: concurrentLearners,
  prefix: 'soak',
  password: PASSWORD,
})
const examQuiz = await server.createQuiz(admin, quizJson(20, 'Soak exam'))
const editedQuiz = await server.createQuiz(admin, quizJson(5, 'Soak edits'))
const learnerTokens = await server.tokensFor(Array.from({ length: concurrentLearners }, (_, i) => `soak${i + 1}`))
const optionsByQuestion = new Map()

const started = performance.now()
const until = started + seconds * 1000
const rss = { start: rssMiB(), peak: 0 }
const sampler = setInterval(() => (rss.peak = Math.max(rss.peak, rssMiB() ?? 0)), 1000)

/** A learner sits the 20-question quiz again and again: start, look at questions, autosave, submit. */
async function learner(token) {
  while (performance.now() < until && aliveThroughout) {
    const start = await hit('start or resume (GET /api/quizzes/{id}/)', 'GET', `/api/quizzes/${examQuiz}/`, { token })
    if (start.status !== 200) continue
    const answers = {}
    for (let n = 1; n <= start.body.questions.length; n += 4) {
      const questionId = start.body.questions[n - 1].id
      if (!optionsByQuestion.has(questionId)) {
        const question = await hit('fetch a question', 'GET', `/api/quizzes/${examQuiz}/question/${n}/`, { token })
        if (question.status !== 200) continue
        optionsByQuestion.set(
          questionId,
          question.body.options.map((option) => option.id),
        )
      }
      const options = optionsByQuestion.get(questionId)
      answers[questionId] = options[n % options.length]
      await hit('autosave (PUT .../answers/)', 'PUT', `/api/quizzes/${examQuiz}/answers/`, {
        token,
        body: { answers: { [questionId]: answers[questionId] } },
      })
    }
    await hit('submit (POST .../submit/)', 'POST', `/api/quizzes/${examQuiz}/submit/`, {
      token,
      body: { attempt_id: start.body.attempt.id, answers },
    })
  }
}

/** New learners one after another: a code by SMS (read from the console outbox), its check, the registration. */
async function registrations() {
  const outbox = path.join(server.dataDir, 'sms-outbox.jsonl')
  for (let i = 0; performance.now() < until && aliveThroughout; i++) {
    const phone = `98${String(10_000_000 + i).padStart(8, '0')}`
    const sent = await hit('send a code (POST /api/users/otp/send/)', 'POST', '/api/users/otp/send/', {
      body: { phone_number: phone, purpose: 'register' },
    })
    if (sent.status !== 200) continue
    const line = readFileSync(outbox, 'utf8')
      .trimEnd()
      .split('\n')
      .findLast((l) => l.includes(`"${phone}"`))
    const otp = JSON.parse(line).text.match(/\d{6}/)[0]
    await hit('check a code (POST /api/users/otp/verify/)', 'POST', '/api/users/otp/verify/', {
      body: { phone_number: phone, otp, purpose: 'register' },
    })
    const username = `newcomer${i}`
    await hit(
      'register (POST /api/users/register/)',
      'POST',
      '/api/users/register/',
      { body: { username, password: PASSWORD, password2: PASSWORD, phone_number: phone } },
      [201],
    )
  }
}

// A 1x1 PNG: every profile save with a picture goes through sharp's re-encoding.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

/** Profile saves (multipart, sometimes with a picture) by the learners, in turn. */
async function profiles() {
  for (let i = 0; performance.now() < until && aliveThroughout; i++) {
    const form = new FormData()
    form.set('full_name', `Soak Learner ${i}`)
    form.set('preferred_language', i % 2 ? 'ne' : 'en')
    if (i % 3 === 0) form.set('profile_picture', new Blob([PNG], { type: 'image/png' }), 'me.png')
    const entry = stats.get('profile (PUT /api/users/profile/)') ?? { requests: 0, unexpected: 0 }
    stats.set('profile (PUT /api/users/profile/)', entry)
    entry.requests++
    try {
      const response = await fetch(`${server.baseUrl}/api/users/profile/`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${learnerTokens[i % learnerTokens.length]}` },
        body: form,
      })
      await response.arrayBuffer()
      if (response.status !== 200) entry.unexpected++
    } catch {
      entry.unexpected++
    }
  }
}

/** An administrator at work: quiz settings, and a question added, edited and deleted. */
async function adminEdits() {
  const question = (text) => ({
    text: { en: text, ne: '' },
    options: [
      { text: { en: 'yes', ne: 'हो' }, is_correct: true },
      { text: { en: 'no', ne: 'होइन' }, is_correct: false },
    ],
  })
  for (let i = 0; performance.now() < until && aliveThroughout; i++) {
    await hit('edit quiz settings (PATCH)', 'PATCH', `/api/admin/quizzes/${editedQuiz}/`, {
      token: admin,
      body: { title: { en: `Soak edits ${i}`, ne: '' }, duration_minutes: 30 + (i % 60) },
    })
    const added = await hit(
      'add, edit, delete a question',
      'POST',
      `/api/admin/quizzes/${editedQuiz}/questions/`,
      { token: admin, body: question(`Added ${i}`) },
      [201],
    )
    if (added.status !== 201) continue
    const url = `/api/admin/quizzes/${editedQuiz}/questions/${added.body.id}/`
    await hit('add, edit, delete a question', 'PUT', url, { token: admin, body: question(`Edited ${i}`) })
    await hit('add, edit, delete a question', 'DELETE', url, { token: admin }, [204])
    await hit('read the quiz (GET /api/admin/quizzes/{id}/)', 'GET', `/api/admin/quizzes/${editedQuiz}/`, {
      token: admin,
    })
  }
}

console.log(`soak: Node ${nodeVersion}, ${args.minutes} min, ${concurrentLearners} learners, server pid ${server.pid}`)
await Promise.all([...learnerTokens.map(learner), registrations(), profiles(), adminEdits()])
const elapsed = (performance.now() - started) / 1000
clearInterval(sampler)
const rssEnd = rssMiB()
stopping = true
const stopStarted = performance.now()
const exit = aliveThroughout ? await server.stop() : await server.exited
const stopSeconds = (performance.now() - stopStarted) / 1000
const aborted = /Assertion failed|Aborted|core dumped|FATAL ERROR/i.test(server.stderr())

const rows = [...stats].map(([name, s]) => ({ path: name, requests: s.requests, unexpected: s.unexpected }))
console.table(rows)
const total = rows.reduce((sum, row) => sum + row.requests, 0)
const unexpected = rows.reduce((sum, row) => sum + row.unexpected, 0)
const clean = aliveThroughout && exit.code === 0 && exit.signal === null && !aborted
console.log(
  JSON.stringify({
    node: nodeVersion,
    seconds: Math.round(elapsed),
    requests: total,
    'req/s': Math.round(total / elapsed),
    unexpected,
    'rss MiB (start/peak/end)': `${rss.start}/${rss.peak}/${rssEnd}`,
    alive_throughout: aliveThroughout,
    exit_code: exit.code,
    exit_signal: exit.signal,
    stop_seconds: +stopSeconds.toFixed(2),
    abort_in_log: aborted,
    clean,
  }),
)
process.exit(clean && unexpected === 0 ? 0 : 1)
