// The exam's two storms alone, to profile them: 1,000 learners start the 100-question quiz together, their autosaved
// answers are written straight into the SQLite file (not 66,667 requests), then all 1,000 submit together; every
// score is checked. The server's profile then holds little but the starts and the submits:
//   BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" node bench/profile-storm.mjs
// BENCH_LEARNERS and BENCH_QUESTIONS as in bench/run.mjs. SQLite only.
import { call, practiceCardsOf, quizJson, seedSavedAnswers, startServer, summarise } from './lib.mjs'

const learners = Number(process.env.BENCH_LEARNERS ?? 1000)
const questionCount = Number(process.env.BENCH_QUESTIONS ?? 100)
const PASSWORD = 'Bench-pass-2026'

const server = await startServer()
const peakRss = {}
const sampler = setInterval(() => {
  for (const [pid, mib] of Object.entries(server.rss())) peakRss[pid] = Math.max(peakRss[pid] ?? 0, mib)
}, 50)
try {
  const admin = await server.seed({
    admin: 'benchadmin',
    phone: '9700000000',
    learners,
    prefix: 'learner',
    password: PASSWORD,
  })
  const quiz = await server.createQuiz(admin, quizJson(questionCount, 'Exam'))
  const names = Array.from({ length: learners }, (_, i) => `learner${i + 1}`)
  const tokens = await server.tokensFor(names)
  const rows = []

  const storm = async (name, request) => {
    const latencies = []
    const statuses = {}
    let errors = 0
    const started = performance.now()
    const cpuBefore = server.cpuSeconds()
    await Promise.all(
      tokens.map(async (token, i) => {
        const response = await request(token, i)
        latencies.push(response.ms)
        if (response.status !== 200) {
          errors++
          statuses[response.status] = (statuses[response.status] ?? 0) + 1
        }
        return response
      }),
    )
    rows.push({
      ...summarise(name, latencies, errors, (performance.now() - started) / 1000),
      // CPU, unlike latency, hardly moves with what else the machine runs: compare versions by this.
      'server CPU ms/request': (((server.cpuSeconds() - cpuBefore) * 1000) / tokens.length).toFixed(3),
    })
    if (errors > 0) console.log(`${name}: unexpected answers by status ${JSON.stringify(statuses)}`)
  }

  await storm(`${learners} learners start together`, (token) =>
    call(server.baseUrl, 'GET', `/api/quizzes/${quiz}/`, { token }),
  )
  const choices = seedSavedAnswers(server.dataDir, quiz, names)
  let wrongScores = 0
  await storm(`${learners} learners submit together`, async (token, i) => {
    const response = await call(server.baseUrl, 'POST', `/api/quizzes/${quiz}/submit/`, {
      token,
      body: { answers: choices[i] },
    })
    // Question q's first option is right (+1), its second wrong (-0.2); see seedSavedAnswers.
    let hundredths = 0
    for (let q = 1; q <= questionCount; q++) hundredths += [100, -20, 0][(i + q) % 3]
    if (response.body?.score !== hundredths / 100) wrongScores++
    return response
  })
  console.table(rows)
  console.log(`wrong scores: ${wrongScores}; peak resident memory, MB by process: ${JSON.stringify(peakRss)}`)
  // Every submit's mistakes are in the deck, those the submits left owed too once the server has written them.
  const practised = await practiceCardsOf(server.dataDir)
  console.log(`practice cards: ${practised.cards} (still owed after 30 s: ${practised.owed} submits' cards)`)
} finally {
  clearInterval(sampler)
  await server.stop()
}
