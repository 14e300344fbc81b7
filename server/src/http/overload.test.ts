import { describe, expect, it } from 'vitest'
import { createUser, bearerFor } from '../../test/factories'
import { useTestApp } from '../../test/test-app'

const block = (ms: number) => {
  const end = performance.now() + ms
  while (performance.now() < end) {
    // busy: this is the overload
  }
}

/**
 * under-pressure samples the loop's delay about once a second. Keeps the loop lagging (busy 500 ms, then a
 * yield) or, with `lag` false, lets it idle, and asks after each slice until `done(answer)` or `seconds` have
 * passed; returns the last answer. The waits are for an event (the sampler's next verdict), not a fixed time:
 * on a loaded machine a sample can come late, or show a lag the test did not cause, so each wait is generous
 * and ends as soon as the answer comes.
 */
async function askWhile<T>(ask: () => Promise<T>, done: (answer: T) => boolean, { lag = true, seconds = 20 } = {}) {
  const end = performance.now() + seconds * 1000
  for (;;) {
    if (lag) block(500)
    await new Promise((resolve) => setTimeout(resolve, lag ? 0 : 100))
    const answer = await ask()
    if (done(answer) || performance.now() > end) return answer
  }
}

describe('overload shedding', () => {
  const metricsToken = 'scrape-token-0123456789abcdef'
  const t = useTestApp('sqlite', {
    // Well above the stalls a busy machine gives a process it is not loading itself, well below the test's lag.
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '200',
    OVERLOAD_RETRY_AFTER_SECONDS: '7',
    METRICS_TOKEN: metricsToken,
  })

  it('answers 503 with Retry-After while the event loop lags, keeps health and metrics answering, and recovers', async () => {
    const learner = await createUser(t.database)
    const headers = await bearerFor(t.tokens, learner)
    const list = () => t.app.inject({ method: 'GET', url: '/api/quizzes/', headers })
    // Building the app and its database blocks the loop too: start from a calm loop, as a server does.
    expect((await askWhile(list, (response) => response.statusCode === 200, { lag: false })).statusCode).toBe(200)

    const shed = await askWhile(list, (response) => response.statusCode !== 200)
    expect(shed.statusCode).toBe(503)
    expect(shed.headers['retry-after']).toBe('7')
    expect(shed.json()).toEqual({
      detail: 'The server is busy. Please try again in a few seconds.',
      code: 'service_unavailable',
    })
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200)
    const scrape = await t.app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: { authorization: `Bearer ${metricsToken}` },
    })
    expect(scrape.statusCode).toBe(200)
    expect(scrape.body).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/quizzes",status="503"\} [1-9]/,
    )

    const recovered = await askWhile(list, (response) => response.statusCode !== 503, { lag: false })
    expect(recovered.statusCode).toBe(200)
  })
})

describe('overload shedding turned off', () => {
  const t = useTestApp('sqlite', { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' })

  it('lets requests wait however long the loop lags', async () => {
    const learner = await createUser(t.database)
    const headers = await bearerFor(t.tokens, learner)
    const list = () => t.app.inject({ method: 'GET', url: '/api/quizzes/', headers })
    // Lags for the whole 5 s: long enough for several samples that would shed if shedding were on.
    const response = await askWhile(list, (answer) => answer.statusCode !== 200, { seconds: 5 })
    expect(response.statusCode).toBe(200)
  })
})
