// Shared pieces of the benchmarks: a server under test, seeding through the real API and CLIs, and a
// small keep-alive HTTP client that records latencies.
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import http from 'node:http'
import { createRequire } from 'node:module'
import { cpus, tmpdir } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { SignJWT } from 'jose'
import pg from 'pg'
import { freePort, waitForHealth } from '../e2e/harness.mjs'

export { freePort }

const root = path.resolve(import.meta.dirname, '..')

// The same driver choice as server/src/db/sqlite-driver.ts (docs/decisions/010-sqlite-driver-per-node-line.md).
const Database = createRequire(import.meta.url)(
  Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20',
)

/** Runs one statement on the PostgreSQL server of `url` (its own database, for creating and dropping others). */
export async function pgAdmin(url, text) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await client.query(text)
  } finally {
    await client.end()
  }
}

/**
 * Starts the built server in a fresh data directory with the rate limits of the account routes raised: on SQLite,
 * or with BENCH_DATABASE_URL (a role that may create databases) on a fresh PostgreSQL database, dropped at stop.
 * WORKERS in the environment runs that many server processes. `node` runs it (and the CLIs) on another Node.js
 * binary; `env` adds settings (DATABASE_URL there names the PostgreSQL database to use; the caller's own
 * DATABASE_URL is never inherited); `dataDir` and `port` restart a server on the data and address of one stopped before.
 */
export async function startServer({
  node = process.execPath,
  env: extraEnv = {},
  dataDir = mkdtempSync(path.join(tmpdir(), 'quiz-bench-')),
  port,
} = {}) {
  port ??= await freePort()
  const inherited = { ...process.env }
  delete inherited.DATABASE_URL
  delete inherited.DATABASE_OWNER_URL
  const adminUrl = process.env.BENCH_DATABASE_URL
  let freshDatabase
  if (adminUrl && !extraEnv.DATABASE_URL) {
    freshDatabase = `quiz_bench_${process.pid}_${randomBytes(3).toString('hex')}`
    await pgAdmin(adminUrl, `create database ${freshDatabase}`)
    const url = new URL(adminUrl)
    url.pathname = `/${freshDatabase}`
    inherited.DATABASE_URL = url.toString()
    // BENCH_APP_ROLE (a role made as docs/operations.md "Database roles" makes it): served under row security.
    if (process.env.BENCH_APP_ROLE) {
      inherited.DATABASE_OWNER_URL = url.toString()
      url.username = process.env.BENCH_APP_ROLE
      url.password = ''
      inherited.DATABASE_URL = url.toString()
    }
  }
  const env = {
    ...inherited,
    // As `npm start` runs the server (docs/operations.md "Memory"): with glibc's default arenas, one for each thread
    // that allocates, the exam after the routes (BENCH_ONLY=routes,exam) peaked at 388 MB against 273 MB with two.
    MALLOC_ARENA_MAX: inherited.MALLOC_ARENA_MAX ?? '2',
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_LOGIN_PER_IP: '100000000',
    RATE_LIMIT_LOGIN_PER_USERNAME: '100000000',
    ...extraEnv,
  }
  // BENCH_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the server under load; BENCH_SERVER_STDOUT=1
  // shows the server's standard output (e.g. with "--trace-gc-nvp").
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)
  const child = spawn(node, [...nodeArgs, path.join(root, 'server/dist/main.js')], {
    env,
    stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? 'inherit' : 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => {
    stderr += chunk
    process.stderr.write(chunk)
  })
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  const baseUrl = `http://127.0.0.1:${port}`
  await waitForHealth(baseUrl, child)
  return {
    baseUrl,
    port,
    pid: child.pid,
    /** Resolves with {code, signal} when the server process ends, whoever ended it. */
    exited,
    stderr: () => stderr,
    dataDir,
    env,
    cli(name, args) {
      const result = spawnSync(node, [path.join(root, `server/dist/cli/${name}.js`), ...args], {
        env,
        encoding: 'utf8',
      })
      if (result.status !== 0) throw new Error(`${name}: ${result.stderr}${result.stdout}`)
      return result.stdout
    },
    /** An administrator and learners PREFIX1..PREFIXN, made with the CLIs; resolves with the administrator's token. */
    async seed({ admin, phone, learners, prefix, password }) {
      this.cli('create-admin', ['--username', admin, '--password', password, '--phone', phone])
      this.cli('create-learners', ['--count', String(learners), '--prefix', prefix, '--password', password])
      return (await call(baseUrl, 'POST', '/api/token/', { body: { username: admin, password } })).body.access
    },
    /** Creates a quiz from JSON as `token`; resolves with its id. */
    async createQuiz(token, quiz) {
      return (await call(baseUrl, 'POST', '/api/quizzes/create-from-json/', { body: quiz, token })).body.quiz_id
    },
    /** The database the server runs on: `sqlite`, or `postgres` (BENCH_DATABASE_URL, or DATABASE_URL in `env`). */
    dialect: env.DATABASE_URL ? 'postgres' : 'sqlite',
    /** CPU seconds the server's processes have used so far (Linux): compare versions by it where latency is noisy. */
    cpuSeconds() {
      return [child.pid, ...childPids(child.pid)].reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0), 0)
    },
    /** Resident memory in MB of the server's processes (the primary and, with WORKERS, each worker), by pid. */
    rss() {
      const pids = [child.pid, ...childPids(child.pid)]
      return Object.fromEntries(pids.map((pid) => [pid, rssMB(pid)]).filter(([, mb]) => mb !== undefined))
    },
    /** Rows of one SQL query on the server's database, read directly (SQLite file or PostgreSQL). */
    async rows(sqlText) {
      if (env.DATABASE_URL) {
        const client = new pg.Client({ connectionString: env.DATABASE_URL })
        await client.connect()
        try {
          return (await client.query(sqlText)).rows
        } finally {
          await client.end()
        }
      }
      const db = new Database(path.join(dataDir, 'quiz.db'), { readonly: true })
      try {
        return db.prepare(sqlText).all()
      } finally {
        db.close()
      }
    },
    /**
     * Access tokens for users, signed with the server's secret (setup only: 1,000 argon2 logins would take minutes);
     * for the institute `slug` when given (its roles, and a token its host accepts), else the first institute's.
     */
    async tokensFor(usernames, slug) {
      const key = new TextEncoder().encode(env.JWT_SECRET)
      const institute = slug ? `(select id from institutes where slug = '${slug}')` : '1'
      const users = new Map(
        // Roles are the institute's memberships' (docs/decisions/096).
        (
          await this.rows(
            `select u.id, u.username, m.is_admin from users u left join memberships m on m.user_id = u.id and m.institute_id = ${institute}`,
          )
        ).map((user) => [user.username, user]),
      )
      const tokens = []
      for (const username of usernames) {
        const user = users.get(username)
        tokens.push(
          await new SignJWT({
            token_type: 'access',
            user_id: user.id,
            username: user.username,
            is_admin: Number(user.is_admin) === 1,
            ...(slug && { institute: slug }),
          })
            .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
            .setIssuedAt()
            .setExpirationTime('2h')
            .setJti(randomBytes(8).toString('hex'))
            .sign(key),
        )
      }
      return tokens
    },
    /** SIGTERM (or `signal`), then waits for the process to end; resolves with its {code, signal}. */
    async stop({ signal = 'SIGTERM', keepData = false } = {}) {
      child.kill(signal)
      const result = await exited
      if (!keepData && !process.env.BENCH_KEEP) {
        rmSync(dataDir, { recursive: true, force: true })
        if (freshDatabase) await pgAdmin(adminUrl, `drop database if exists ${freshDatabase}`)
      }
      return result
    },
  }
}

/** The processes a server process forked (its cluster workers), read from /proc. */
function childPids(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    )
  } catch {
    return []
  }
}

/** CPU seconds a process has used so far (Linux), or undefined elsewhere. */
export function processCpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return undefined
  }
}

/** CPU seconds each PostgreSQL process alive now has used so far, by pid. */
export function postgresCpuByProcess() {
  const byProcess = new Map()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (!readFileSync(`/proc/${entry}/stat`, 'utf8').includes('(postgres)')) continue
    } catch {
      continue
    }
    byProcess.set(entry, processCpuSeconds(Number(entry)) ?? 0)
  }
  return byProcess
}

function rssMB(pid) {
  try {
    // /proc says kB and means KiB.
    const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kib === undefined ? undefined : Math.round((Number(kib) * 1024) / 1e6)
  } catch {
    return undefined
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })

/** One request on a keep-alive socket; resolves {status, body, ms, headers}. */
/** One request; `host` names the institute it is for (API.md "Institutes"), as a browser on its address would. */
export function call(baseUrl, method, url, { body, token, host } = {}) {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body))
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${url}`, {
      method,
      agent,
      headers: {
        ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(host ? { host } : {}),
      },
    })
    req.on('response', (res) => {
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        resolve({
          status: res.statusCode,
          body: text ? JSON.parse(text) : undefined,
          ms: performance.now() - started,
          headers: res.headers,
        })
      })
    })
    req.on('error', reject)
    req.end(payload)
  })
}

/** The bare Fastify route (bare-server.mjs) in its own process with `env`, once it answers: {url, process}. */
export async function startBareServer(env) {
  const port = await freePort()
  const bare = spawn(process.execPath, [new URL('./bare-server.mjs', import.meta.url).pathname], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: 'inherit',
  })
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/bare`)).ok) break
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  return { url: `http://127.0.0.1:${port}`, process: bare }
}

/**
 * The machine a bench's figures came from, as one line: its CPUs, Node, and the bare route's rate at 50 connections
 * for `seconds` (what `npm run bench` calls the ceiling), so that a rate or a CPU time can be read against it.
 */
export async function machineLine(seconds = 3) {
  const { url, process: bare } = await startBareServer({})
  try {
    const result = await autocannon({ url: `${url}/bare`, connections: 50, duration: seconds })
    return (
      `this machine: ${cpus().length} CPUs, ${cpus()[0].model}, Node ${process.versions.node}; ` +
      `bare Fastify route ${Math.round(result.requests.average)} req/s (50 connections, ${seconds} s)`
    )
  } finally {
    bare.kill()
  }
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

export function summarise(name, latencies, errors, seconds) {
  const sorted = [...latencies].sort((a, b) => a - b)
  return {
    scenario: name,
    requests: latencies.length,
    'req/s': Math.round(latencies.length / seconds),
    'p50 ms': +percentile(sorted, 50).toFixed(1),
    'p99 ms': +percentile(sorted, 99).toFixed(1),
    errors,
  }
}

/** A quiz object for create-from-JSON with `count` questions of four options, the first correct. */
export function quizJson(count, title = 'Benchmark quiz') {
  return {
    title: { en: title, ne: 'बेन्चमार्क' },
    duration_minutes: 120,
    allowed_attempts: 1000,
    questions: Array.from({ length: count }, (_, i) => ({
      text: { en: `Question ${i + 1}: what is ${i} + 1?`, ne: `प्रश्न ${i + 1}` },
      hint: { en: 'Add one.', ne: '' },
      topic: 'arithmetic',
      options: [i + 1, i + 2, i + 3, i].map((value, j) => ({
        text: { en: String(value), ne: '' },
        is_correct: j === 0,
      })),
    })),
  }
}

/** A passage of `words` words in English and Nepali, as an exam's comprehension. */
const passageText = (words, seed) => ({
  en: Array.from({ length: words }, (_, i) => `word${(i * 7 + seed) % 97}`).join(' '),
  ne: Array.from({ length: words }, (_, i) => `शब्द${(i * 7 + seed) % 97}`).join(' '),
})

/**
 * A mixed paper for create-from-JSON (API.md "Question types", budgets bullet: the question and autosave routes keep
 * their budgets with these types): per 10 questions a passage of 300 words over 3 choice questions, 3 choice
 * questions, 2 multiple (first and third options right) and 2 numeric (the answer i, no decimals).
 */
export function mixedQuizJson(count, title = 'Benchmark quiz') {
  const choice = quizJson(count).questions
  const items = []
  for (let i = 0; i < count;) {
    const block = i % 10
    if (block === 0 && i + 3 <= count) {
      items.push({ passage: { text: passageText(300, i), image: null }, items: choice.slice(i, i + 3) })
      i += 3
    } else if (block === 6 || block === 7) {
      items.push({
        ...choice[i],
        type: 'multiple',
        options: choice[i].options.map((option, j) => ({ ...option, is_correct: j % 2 === 0 })),
      })
      i += 1
    } else if (block === 8 || block === 9) {
      const { options: _options, ...question } = choice[i]
      items.push({ ...question, type: 'numeric', answer: { value: i, tolerance: 0 }, decimals: 0 })
      i += 1
    } else {
      items.push(choice[i])
      i += 1
    }
  }
  const { questions: _questions, ...quiz } = quizJson(count, title)
  return { ...quiz, sections: [{ title: { en: 'Mixed', ne: 'मिश्रित' }, items }] }
}

/** An answer of the question's type, varied by `k`: an option id, a list of option ids, or a typed number. */
export function answerFor(question, k) {
  if (question.type === 'numeric') return String(k % 50)
  if (question.type === 'multiple') return [question.options[k % 4].id, question.options[(k + 1) % 4].id]
  return question.options[k % question.options.length].id
}

/**
 * Seeds `count` learners, each with a finished first attempt at `quizId`, straight into the server's SQLite file
 * (one transaction: through the API this would take minutes). Scores spread over the whole range, with ties.
 */
export function seedFinishedFirstAttempts(dataDir, quizId, count) {
  const db = new Database(path.join(dataDir, 'quiz.db'))
  db.pragma('busy_timeout = 10000')
  const revisionIds = db
    .prepare(
      `select q.revision_id from paper_items i join questions q on q.id = i.question_id
       where i.quiz_id = ? and q.deleted_at is null order by i.position`,
    )
    .pluck()
    .all(quizId)
  const questions = revisionIds.length
  const insertUser = db.prepare(
    `insert into users (username, username_key, phone_number, password_hash, created_at) values (?, ?, ?, '!', ?)`,
  )
  const insertAttempt = db.prepare(
    `insert into attempts (user_id, quiz_id, attempt_number, status, started_at, deadline, revision_ids, finished_at,
       score_hundredths, correct, incorrect, unanswered, late, submitted)
     values (?, ?, 1, 'finished', ?, ?, ?, ?, ?, ?, ?, ?, 0, 1)`,
  )
  const now = Date.now()
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const name = `ranked${i + 1}`
      const { lastInsertRowid: userId } = insertUser.run(name, name, `96${String(i).padStart(8, '0')}`, now)
      const correct = (i * 7) % (questions + 1)
      const incorrect = (i * 3) % (questions - correct + 1)
      const unanswered = questions - correct - incorrect
      insertAttempt.run(
        userId,
        quizId,
        now - 3_600_000,
        now,
        JSON.stringify(revisionIds),
        now - 60_000,
        correct * 100 - incorrect * 20,
        correct,
        incorrect,
        unanswered,
      )
    }
    // The quiz's tally of first-attempt scores, as the server keeps it when an attempt finishes.
    db.prepare(
      `insert into first_attempt_scores (quiz_id, score_hundredths, learners)
       select quiz_id, score_hundredths, count(*) from attempts
       where quiz_id = ? and attempt_number = 1 and status = 'finished' group by quiz_id, score_hundredths
       on conflict (quiz_id, score_hundredths) do update set learners = excluded.learners`,
    ).run(quizId)
  })()
  db.close()
}

/**
 * Saves straight into the server's SQLite file, for every attempt in progress at `quizId`, the answers learner i
 * of `usernames` would have autosaved: question q (1-based) answered with its first (correct) option when
 * (i + q) % 3 === 0, its second when 1, left when 2 (bench/run.mjs's exam). Returns each learner's choices
 * (question id -> option id), for the submit. One transaction: the 66,667 autosaves without their requests.
 */
export function seedSavedAnswers(dataDir, quizId, usernames) {
  const db = new Database(path.join(dataDir, 'quiz.db'))
  db.pragma('busy_timeout = 10000')
  const options = db
    .prepare(
      `select q.id as question_id, i.position, o.id as option_id, o.position as option_position
       from paper_items i join questions q on q.id = i.question_id join question_options o on o.revision_id = q.revision_id
       where i.quiz_id = ? and q.deleted_at is null order by i.position, o.position`,
    )
    .all(quizId)
  const byPosition = new Map()
  for (const row of options) {
    if (!byPosition.has(row.position)) byPosition.set(row.position, { questionId: row.question_id, options: [] })
    byPosition.get(row.position).options.push(row.option_id)
  }
  const attemptOf = db.prepare(
    `select a.id from attempts a join users u on u.id = a.user_id
     where u.username = ? and a.quiz_id = ? and a.status = 'in_progress'`,
  )
  const save = db.prepare(
    'insert into attempt_answers (attempt_id, question_id, option_id, saved_at) values (?, ?, ?, ?)',
  )
  const now = Date.now()
  const choices = usernames.map(() => ({}))
  // A learner whose start was refused (a 503 under overload) has no attempt: nothing was saved.
  const attemptIds = usernames.map((username) => attemptOf.pluck().get(username, quizId))
  db.transaction(() => {
    // Question by question across the learners, as an exam's autosaves come: one attempt's answers are not together.
    for (const [q, { questionId, options: ids }] of byPosition) {
      for (const [i, attemptId] of attemptIds.entries()) {
        const mode = (i + q) % 3
        if (attemptId === undefined || mode === 2) continue
        const optionId = mode === 0 ? ids[0] : ids[1]
        choices[i][questionId] = optionId
        save.run(attemptId, questionId, optionId, now)
      }
    }
  })()
  db.close()
  return choices
}

/** Numbers in [0, 1) from a seed (mulberry32): the same seed gives the same run, so figures can be compared. */
export function seededRandom(seed) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * The practice cards a storm's submits left in the server's SQLite file, once the server's background pass has written
 * those still owed (decision 080; a build before it has no debts), waiting up to `waitMs`: { cards, owed }.
 */
export async function practiceCardsOf(dataDir, waitMs = 30_000) {
  const db = new Database(path.join(dataDir, 'quiz.db'), { readonly: true })
  try {
    const owes = db.prepare("select 1 from sqlite_master where name = 'owed_practice_cards'").get() !== undefined
    const owed = () => (owes ? db.prepare('select count(*) from owed_practice_cards').pluck().get() : 0)
    for (const until = Date.now() + waitMs; owed() > 0 && Date.now() < until;)
      await new Promise((resolve) => setTimeout(resolve, 50))
    return { cards: db.prepare('select count(*) from practice_cards').pluck().get(), owed: owed() }
  } finally {
    db.close()
  }
}
