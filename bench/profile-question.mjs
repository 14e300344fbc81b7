// Profiles one hot route (and prints its server CPU a request without a profiler): BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" node bench/profile-question.mjs
// ROUTE=question (default), list (GET /api/quizzes/), autosave (PUT .../answers/ with one answer) or results (GET
// /api/results/, each learner with RESULTS finished attempts, default 5).
import autocannon from 'autocannon'
import { call, quizJson, startServer } from './lib.mjs'

const server = await startServer()
try {
  server.cli('create-admin', ['--username', 'benchadmin', '--password', 'Bench-pass-2026', '--phone', '9700000000'])
  server.cli('create-learners', ['--count', '50', '--prefix', 'learner', '--password', 'Bench-pass-2026'])
  const admin = (
    await call(server.baseUrl, 'POST', '/api/token/', { body: { username: 'benchadmin', password: 'Bench-pass-2026' } })
  ).body.access
  const quiz = (
    await call(server.baseUrl, 'POST', '/api/quizzes/create-from-json/', { body: quizJson(20), token: admin })
  ).body.quiz_id
  const tokens = await server.tokensFor(Array.from({ length: 50 }, (_, i) => `learner${i + 1}`))
  const route = process.env.ROUTE ?? 'question'
  if (route === 'results')
    for (let finished = 0; finished < Number(process.env.RESULTS ?? 5); finished++)
      for (const token of tokens)
        await call(server.baseUrl, 'POST', `/api/quizzes/${quiz}/submit/`, { token, body: {} })
  for (const token of tokens) await call(server.baseUrl, 'GET', `/api/quizzes/${quiz}/`, { token })
  let c = 0
  let n = 0
  // Each question's first option: what the autosaves send.
  const firstOptions = []
  for (let number = 1; number <= 20; number++) {
    const { body } = await call(server.baseUrl, 'GET', `/api/quizzes/${quiz}/question/${number}/`, { token: tokens[0] })
    firstOptions.push({ [body.id]: body.options[0].id })
  }
  const cpuBefore = server.cpuSeconds()
  await new Promise((resolve) =>
    autocannon(
      {
        url: server.baseUrl,
        connections: 50,
        duration: 8,
        setupClient: (client) =>
          client.setHeaders({ authorization: `Bearer ${tokens[c++ % 50]}`, 'content-type': 'application/json' }),
        requests: [
          route === 'autosave'
            ? {
                method: 'PUT',
                path: `/api/quizzes/${quiz}/answers/`,
                setupRequest: (req) => ({ ...req, body: JSON.stringify({ answers: firstOptions[n++ % 20] }) }),
              }
            : {
                method: 'GET',
                setupRequest: (req) => ({
                  ...req,
                  path:
                    route === 'list'
                      ? '/api/quizzes/'
                      : route === 'results'
                        ? '/api/results/'
                        : `/api/quizzes/${quiz}/question/${(n++ % 20) + 1}/`,
                }),
              },
        ],
      },
      (error, result) => {
        const errors = result.errors + result.timeouts + result.non2xx
        // Server CPU a request: steadier than the rate on a machine doing other work.
        const cpuUs = ((server.cpuSeconds() - cpuBefore) * 1e6) / result.requests.total
        console.log(route, Math.round(result.requests.average), 'req/s', 'p99', result.latency.p99, 'errors', errors)
        console.log(route, 'server CPU', cpuUs.toFixed(1), 'µs a request')
        resolve()
      },
    ),
  )
} finally {
  await server.stop()
}
