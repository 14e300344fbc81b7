// node bench/report-card.mjs (after `npm run build -w server`): only the report-card row of `npm run bench`, a
// report card with analysis for a quiz with BENCH_RANKED (10,000) finished first attempts, at BENCH_CONNECTIONS.
import autocannon from 'autocannon'
import { call, quizJson, seedFinishedFirstAttempts, startServer } from './lib.mjs'

const duration = Number(process.env.BENCH_DURATION ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const rankedAttempts = Number(process.env.BENCH_RANKED ?? 10_000)
const PASSWORD = 'Bench-pass-2026'

const server = await startServer()
try {
  server.cli('create-admin', ['--username', 'benchadmin', '--password', PASSWORD, '--phone', '9700000000'])
  server.cli('create-learners', ['--count', '1', '--prefix', 'reader', '--password', PASSWORD])
  const [admin, reader] = await server.tokensFor(['benchadmin', 'reader1'])
  const quizId = (
    await call(server.baseUrl, 'POST', '/api/quizzes/create-from-json/', { body: quizJson(20, 'Ranked'), token: admin })
  ).body.quiz_id
  seedFinishedFirstAttempts(server.dataDir, quizId, rankedAttempts)
  const { attempt_id: attemptId } = (
    await call(server.baseUrl, 'POST', `/api/quizzes/${quizId}/submit/`, { body: { answers: {} }, token: reader })
  ).body
  const { analysis } = (await call(server.baseUrl, 'GET', `/api/results/${attemptId}/`, { token: reader })).body
  console.log(`rank ${analysis.rank} of ${analysis.participants}, percentile ${analysis.percentile}`)
  const result = await autocannon({
    url: `${server.baseUrl}/api/results/${attemptId}/`,
    connections,
    duration,
    headers: { authorization: `Bearer ${reader}` },
  })
  console.table([
    {
      scenario: `report card with analysis, ${rankedAttempts.toLocaleString('en')} first attempts`,
      connections,
      'req/s': Math.round(result.requests.average),
      'p50 ms': result.latency.p50,
      'p99 ms': result.latency.p99,
      errors: result.errors + result.timeouts + result.non2xx,
    },
  ])
} finally {
  await server.stop()
}
