// npm run bench:live (and the `live` part of npm run bench): API.md's live-mock budget. BENCH_LIVE_LEARNERS
// (default 5,000) learners register for a live mock of BENCH_LIVE_QUESTIONS (default 100) questions and
// BENCH_LIVE_MINUTES (default 2) minutes; at its start they start their attempts evenly over the first 10 seconds
// (500 a second), each autosaves the first half of its answers in two requests, and each submits the rest evenly over
// the last 30 seconds before the common end. Printed: p50, p95 and p99 of each phase, errors, and the scores
// that differ from what the answers must give (a lost autosave shows as a wrong score, since the submit does not
// repeat the saved half). The budget: p95 of the starts under 1 s on PostgreSQL with WORKERS=2, 0 errors, 0 wrong
// scores. SQLite in one process by default; BENCH_DATABASE_URL runs it on a fresh PostgreSQL database.
import os from 'node:os'
import { call, machineLine, percentile, startServer } from './lib.mjs'

// BENCH_LIVE_NATIONAL=1: the national budget on two instances sharing PostgreSQL (bench/live-national.mjs); with
// BENCH_LIVE_INSTITUTES=N a national mock of N institutes (docs/scaling.md).
if (process.env.BENCH_LIVE_NATIONAL) {
  await import('./live-national.mjs')
  process.exit(0)
}

const learnerCount = Number(process.env.BENCH_LIVE_LEARNERS ?? 5000)
const questionCount = Number(process.env.BENCH_LIVE_QUESTIONS ?? 100)
const durationMinutes = Number(process.env.BENCH_LIVE_MINUTES ?? 2)
const START_SPREAD_MS = 10_000
const SUBMIT_WINDOW_MS = 30_000
// Submits end this long before the common end, so a slow one still arrives before its deadline.
const SUBMIT_MARGIN_MS = 2_000
// The learners' lead before the start: registration and the paper read happen before it.
const PASSWORD = 'Bench-pass-2026'

const sleepUntil = (at) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())))

/** Runs `work` over `items` with at most `limit` at once (registration: no storm, just setup). */
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

function phaseRow(name, latencies, errors, statuses) {
  const sorted = [...latencies].sort((a, b) => a - b)
  if (errors > 0) console.log(`${name}: unexpected answers by status ${JSON.stringify(statuses)}`)
  return {
    phase: name,
    requests: latencies.length,
    'p50 ms': +percentile(sorted, 50).toFixed(1),
    'p95 ms': +percentile(sorted, 95).toFixed(1),
    'p99 ms': +percentile(sorted, 99).toFixed(1),
    errors,
  }
}

console.log(await machineLine())
const server = await startServer()
try {
  console.log(
    `live mock: ${learnerCount} learners, ${questionCount} questions, ${durationMinutes} min; server on ` +
      `${server.dialect}, WORKERS=${process.env.WORKERS ?? 1}; ${os.cpus().length} CPUs, Node ${process.versions.node}`,
  )
  const admin = await server.seed({
    admin: 'liveadmin',
    phone: '9700000001',
    learners: learnerCount,
    prefix: 'live',
    password: PASSWORD,
  })
  const tokens = await server.tokensFor(Array.from({ length: learnerCount }, (_, i) => `live${i + 1}`))

  // Scheduled far ahead while the learners register, then moved to start shortly after they have.
  const questions = Array.from({ length: questionCount }, (_, i) => ({
    text: { en: `Live question ${i + 1}: what is ${i} + 1?`, ne: `प्रश्न ${i + 1}` },
    topic: 'arithmetic',
    options: [i + 1, i + 2, i + 3, i].map((value, j) => ({ text: { en: String(value), ne: '' }, is_correct: j === 0 })),
  }))
  const created = await call(server.baseUrl, 'POST', '/api/quizzes/create-from-json/', {
    token: admin,
    body: {
      title: { en: 'Saturday live mock', ne: 'शनिबारको लाइभ मक' },
      duration_minutes: durationMinutes,
      allowed_attempts: 1,
      questions,
      live: { starts_at: new Date(Date.now() + 86_400_000).toISOString(), join_minutes: 1 },
    },
  })
  if (created.status !== 201) throw new Error(`live quiz: ${created.status} ${JSON.stringify(created.body)}`)
  const quizId = created.body.quiz_id

  let registerErrors = 0
  const registerStarted = performance.now()
  await eachLimited(tokens, 50, async (token) => {
    const response = await call(server.baseUrl, 'POST', `/api/quizzes/${quizId}/register/`, { token })
    if (response.status !== 201) registerErrors++
  })
  const registerSeconds = (performance.now() - registerStarted) / 1000
  console.log(`registered ${learnerCount} learners in ${registerSeconds.toFixed(1)} s, ${registerErrors} errors`)

  // The paper as the admin reads it: question ids and which option is right (written first, never shuffled).
  const paper = (await call(server.baseUrl, 'GET', `/api/admin/quizzes/${quizId}/`, { token: admin })).body
  const right = paper.questions.map((q) => ({ id: q.id, right: q.options[0].id, wrong: q.options[1].id }))

  const startsAt = Date.now() + 5_000
  const moved = await call(server.baseUrl, 'PATCH', `/api/admin/quizzes/${quizId}/`, {
    token: admin,
    body: { live: { starts_at: new Date(startsAt).toISOString(), join_minutes: 1 } },
  })
  if (moved.status !== 200) throw new Error(`moving the mock: ${moved.status} ${JSON.stringify(moved.body)}`)
  const endsAt = startsAt + durationMinutes * 60_000

  // Learner i answers question q right when (i + q) % 3 is 0, wrongly when 1, and leaves it when 2; the first half
  // of the paper is autosaved, the second half sent with the submit.
  const half = Math.ceil(right.length / 2)
  const answersOf = (i, from, to) =>
    Object.fromEntries(
      right
        .slice(from, to)
        .map((q, k) => [q, (i + from + k) % 3])
        .filter(([, mode]) => mode !== 2)
        .map(([q, mode]) => [q.id, mode === 0 ? q.right : q.wrong]),
    )
  const expectedScore = (i) => {
    let hundredths = 0
    for (let q = 0; q < right.length; q++) hundredths += [100, -20, 0][(i + q) % 3]
    return hundredths / 100
  }

  const phases = { start: [], save: [], submit: [] }
  const errors = { start: 0, save: 0, submit: 0 }
  const statuses = { start: {}, save: {}, submit: {} }
  const record = (phase, response, ok) => {
    phases[phase].push(response.ms)
    if (!ok) {
      errors[phase]++
      statuses[phase][response.status] = (statuses[phase][response.status] ?? 0) + 1
    }
    return ok
  }
  let wrongScores = 0
  const saveFrom = startsAt + START_SPREAD_MS
  const saveUntil = endsAt - SUBMIT_WINDOW_MS - 5_000
  await Promise.all(
    tokens.map(async (token, i) => {
      await sleepUntil(startsAt + (i * START_SPREAD_MS) / learnerCount)
      const started = await call(server.baseUrl, 'GET', `/api/quizzes/${quizId}/`, { token })
      if (!record('start', started, started.status === 200 && started.body?.questions?.length === right.length)) return
      const attemptId = started.body.attempt.id
      const saved = answersOf(i, 0, half)
      const ids = Object.keys(saved)
      const parts = [ids.slice(0, Math.ceil(ids.length / 2)), ids.slice(Math.ceil(ids.length / 2))]
      for (const [p, part] of parts.entries()) {
        await sleepUntil(saveFrom + ((saveUntil - saveFrom) * (p + i / learnerCount)) / parts.length)
        const response = await call(server.baseUrl, 'PUT', `/api/quizzes/${quizId}/answers/`, {
          token,
          body: { answers: Object.fromEntries(part.map((id) => [id, saved[id]])) },
        })
        record('save', response, response.status === 200)
      }
      await sleepUntil(endsAt - SUBMIT_WINDOW_MS + (i * (SUBMIT_WINDOW_MS - SUBMIT_MARGIN_MS)) / learnerCount)
      const submitted = await call(server.baseUrl, 'POST', `/api/quizzes/${quizId}/submit/`, {
        token,
        body: { attempt_id: attemptId, answers: answersOf(i, half, right.length) },
      })
      if (record('submit', submitted, submitted.status === 200) && submitted.body.score !== expectedScore(i))
        wrongScores++
    }),
  )
  const rows = [
    phaseRow(
      `${learnerCount} learners start over ${START_SPREAD_MS / 1000} s`,
      phases.start,
      errors.start,
      statuses.start,
    ),
    phaseRow('autosave half the answers (2 requests each)', phases.save, errors.save, statuses.save),
    phaseRow(`submit over the last ${SUBMIT_WINDOW_MS / 1000} s`, phases.submit, errors.submit, statuses.submit),
  ]
  console.table(rows)
  await sleepUntil(endsAt + 1_000)
  const leaderboard = (await call(server.baseUrl, 'GET', `/api/quizzes/${quizId}/leaderboard/`, { token: tokens[0] }))
    .body
  console.log(`leaderboard after the end: ${leaderboard?.status}, ${leaderboard?.participants} participants`)
  console.log(`wrong scores (lost answers included): ${wrongScores}`)
  const startP95 = rows[0]['p95 ms']
  const allErrors = errors.start + errors.save + errors.submit
  const met = startP95 < 1000 && allErrors === 0 && wrongScores === 0
  console.log(
    `${met ? 'met    ' : 'NOT MET'}  live mock on ${server.dialect}, WORKERS=${process.env.WORKERS ?? 1}: ` +
      `p95 of the starts ${startP95} ms (budget 1,000 ms on PostgreSQL with WORKERS=2), ${allErrors} errors, ` +
      `${wrongScores} wrong scores`,
  )
} finally {
  await server.stop()
}
