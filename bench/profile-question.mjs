// Profiles one hot route: BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" node bench/profile-question.mjs
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
  for (const token of tokens) await call(server.baseUrl, 'GET', `/api/quizzes/${quiz}/`, { token })
  let c = 0
  let n = 0
  const route = process.env.ROUTE ?? 'question'
  await new Promise((resolve) =>
    autocannon(
      {
        url: server.baseUrl,
        connections: 50,
        duration: 8,
        setupClient: (client) => client.setHeaders({ authorization: `Bearer ${tokens[c++ % 50]}` }),
        requests: [
          {
            method: 'GET',
            setupRequest: (req) => ({
              ...req,
              path: route === 'list' ? '/api/quizzes/' : `/api/quizzes/${quiz}/question/${(n++ % 20) + 1}/`,
            }),
          },
        ],
      },
      (error, result) => {
        console.log(route, Math.round(result.requests.average), 'req/s', 'p99', result.latency.p99)
        resolve()
      },
    ),
  )
} finally {
  await server.stop()
}
