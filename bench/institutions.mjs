// npm run bench:institutions: the institutions reports at scale on the built server (SQLite, one process).
//  - CSV: BENCH_CSV_ATTEMPTS (default 50,000) finished attempts at a BENCH_QUESTIONS-question quiz (default 100,
//    two thirds answered), downloaded once while the server's RSS is sampled every 20 ms from /proc.
//  - Statistics: BENCH_STATS_ATTEMPTS (default 5,000) finished attempts at another 100-question quiz; the
//    statistics route timed BENCH_STATS_RUNS times (default 5).
// Attempts are seeded straight into the database file with SQL (the API would take an hour for 50,000); the
// quizzes themselves come through create-from-JSON, so questions, revisions and options are real.
import http from 'node:http'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { call, quizJson, seededRandom, startServer } from './lib.mjs'

const Database = createRequire(import.meta.url)(
  Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20',
)

const csvAttempts = Number(process.env.BENCH_CSV_ATTEMPTS ?? 50_000)
const statsAttempts = Number(process.env.BENCH_STATS_ATTEMPTS ?? 5_000)
const questionCount = Number(process.env.BENCH_QUESTIONS ?? 100)
const statsRuns = Number(process.env.BENCH_STATS_RUNS ?? 5)
const ATTEMPTS_PER_LEARNER = 2
const MB = 1024 * 1024

const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024

/**
 * Learners `prefix1..N`, then `attempts` finished attempts spread over them, ATTEMPTS_PER_LEARNER each (one when
 * `perLearner` is 1). Each learner has an ability; each answer is right with that probability, else a wrong option
 * or (one time in three) none, so the statistics have something to find.
 */
function seed(dataDir, quizId, { attempts, perLearner, prefix }) {
  const db = new Database(path.join(dataDir, 'quiz.db'))
  db.pragma('journal_mode = WAL')
  db.pragma('busy_timeout = 10000')
  const questions = db
    .prepare(
      `select q.id, q.revision_id from paper_items i join questions q on q.id = i.question_id
       where i.quiz_id = ? and q.deleted_at is null order by i.position`,
    )
    .all(quizId)
  const optionsOf = db.prepare('select id, is_correct from question_options where revision_id = ? order by position')
  const paper = questions.map((q) => ({ id: q.id, options: optionsOf.all(q.revision_id) }))
  const revisionIds = JSON.stringify(questions.map((q) => q.revision_id))
  const learners = Math.ceil(attempts / perLearner)
  const random = seededRandom(quizId)
  const now = Date.now()
  const insertUser = db.prepare(
    'insert into users (username, username_key, phone_number, password_hash, full_name, created_at) values (?, ?, ?, ?, ?, ?)',
  )
  const insertAttempt = db.prepare(`insert into attempts (user_id, quiz_id, attempt_number, status, started_at,
    deadline, revision_ids, finished_at, score_hundredths, correct, incorrect, unanswered, late, submitted)
    values (?, ?, ?, 'finished', ?, ?, ?, ?, ?, ?, ?, ?, 0, 1)`)
  const insertAnswer = db.prepare(
    'insert into attempt_answers (attempt_id, question_id, option_id, saved_at) values (?, ?, ?, ?)',
  )
  db.transaction(() => {
    let made = 0
    for (let u = 1; u <= learners && made < attempts; u++) {
      const name = `${prefix}${u}`
      const { lastInsertRowid: userId } = insertUser.run(
        name,
        name,
        `0${prefix.length}${String(u).padStart(8, '0')}`,
        'not-a-login',
        // Names with commas and quotes, Devanagari and a formula starter: the CSV escapes some rows.
        u % 3 === 0 ? `राम "${u}", थापा` : u % 7 === 0 ? `=cmd|${u}` : `Learner ${u}`,
        now,
      )
      const ability = 0.3 + 0.6 * random()
      for (let n = 1; n <= perLearner && made < attempts; n++, made++) {
        const started = now - 3_600_000 + made * 10
        const answers = []
        let correct = 0
        let incorrect = 0
        for (const question of paper) {
          const roll = random()
          if (roll < ability) {
            answers.push([question.id, question.options.find((o) => o.is_correct === 1).id])
            correct++
          } else if (roll < ability + (1 - ability) * (2 / 3)) {
            const wrong = question.options.filter((o) => o.is_correct !== 1)
            answers.push([question.id, wrong[Math.floor(random() * wrong.length)].id])
            incorrect++
          }
        }
        const { lastInsertRowid: attemptId } = insertAttempt.run(
          userId,
          quizId,
          n,
          started,
          started + 7_200_000,
          revisionIds,
          started + 1_800_000,
          correct * 100 - incorrect * 20,
          correct,
          incorrect,
          paper.length - correct - incorrect,
        )
        for (const [questionId, optionId] of answers) insertAnswer.run(attemptId, questionId, optionId, started)
      }
    }
  })()
  db.close()
}

/** Downloads the CSV, counting bytes without keeping them; samples the server's RSS meanwhile. */
function downloadCsv(baseUrl, url, token, pid) {
  return new Promise((resolve, reject) => {
    let peak = 0
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20)
    const started = performance.now()
    http
      .get(`${baseUrl}${url}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        let bytes = 0
        let lines = 0
        res.on('data', (chunk) => {
          bytes += chunk.length
          for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++
        })
        res.on('end', () => {
          clearInterval(sampler)
          peak = Math.max(peak, rssOf(pid))
          resolve({ status: res.statusCode, bytes, lines, peak, seconds: (performance.now() - started) / 1000 })
        })
      })
      .on('error', reject)
  })
}

const server = await startServer()
try {
  server.cli('create-admin', ['--username', 'benchadmin', '--password', 'Bench-pass-2026', '--phone', '9700000000'])
  const [admin] = await server.tokensFor(['benchadmin'])
  const createQuiz = async (title) =>
    (
      await call(server.baseUrl, 'POST', '/api/quizzes/create-from-json/', {
        body: quizJson(questionCount, title),
        token: admin,
      })
    ).body.quiz_id
  const csvQuiz = await createQuiz('CSV export')
  const statsQuiz = await createQuiz('Statistics')

  let t0 = performance.now()
  seed(server.dataDir, csvQuiz, { attempts: csvAttempts, perLearner: ATTEMPTS_PER_LEARNER, prefix: 'csv' })
  seed(server.dataDir, statsQuiz, { attempts: statsAttempts, perLearner: 1, prefix: 'st' })
  console.log(`seeded ${csvAttempts} + ${statsAttempts} attempts in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

  // Warm up: the first request of a route compiles its schemas; measure the download's growth, not that.
  await call(server.baseUrl, 'GET', `/api/admin/quizzes/${csvQuiz}/attempts/?page_size=500`, { token: admin })
  const small = await downloadCsv(server.baseUrl, `/api/admin/quizzes/${statsQuiz}/attempts.csv`, admin, server.pid)
  if (small.status !== 200) throw new Error(`warm-up CSV answered ${small.status}`)

  const baseline = rssOf(server.pid)
  const csv = await downloadCsv(server.baseUrl, `/api/admin/quizzes/${csvQuiz}/attempts.csv`, admin, server.pid)
  if (csv.status !== 200 || csv.lines !== csvAttempts + 1) throw new Error(`CSV: ${csv.status}, ${csv.lines} lines`)

  const timings = []
  let statistics
  for (let i = 0; i < statsRuns; i++) {
    t0 = performance.now()
    statistics = await call(server.baseUrl, 'GET', `/api/admin/quizzes/${statsQuiz}/statistics/`, { token: admin })
    timings.push(performance.now() - t0)
    if (statistics.status !== 200) throw new Error(`statistics answered ${statistics.status}`)
  }
  timings.sort((a, b) => a - b)

  console.table([
    {
      scenario: `CSV of ${csvAttempts} attempts x ${questionCount} questions`,
      'MB sent': +(csv.bytes / MB).toFixed(1),
      seconds: +csv.seconds.toFixed(2),
      'RSS before MB': +(baseline / MB).toFixed(1),
      'RSS peak MB': +(csv.peak / MB).toFixed(1),
      'growth MB': +((csv.peak - baseline) / MB).toFixed(1),
    },
  ])
  console.table([
    {
      scenario: `statistics of ${statsAttempts} attempts x ${questionCount} questions`,
      'median ms': Math.round(timings[Math.floor(timings.length / 2)]),
      'max ms': Math.round(timings.at(-1)),
      attempts: statistics.body.attempts,
      alpha: statistics.body.cronbach_alpha,
    },
  ])
} finally {
  await server.stop()
}
