import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createQuiz, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'

const TOKEN = 'scrape-token-0123456789abcdef'

describe.each(dialects)('metrics on %s', (dialect) => {
  describe('without METRICS_TOKEN', () => {
    const t = useTestApp(dialect)

    it('is off: 404 whatever the token', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      })
      expect(response.statusCode).toBe(404)
      expect(response.json().code).toBe('not_found')
    })
  })

  describe('with METRICS_TOKEN', () => {
    const t = useTestApp(dialect, { METRICS_TOKEN: TOKEN })
    const scrape = (authorization?: string) =>
      t.app.inject({ method: 'GET', url: '/api/metrics/', headers: authorization ? { authorization } : {} })

    it.each([
      ['no token', undefined],
      ['another token', 'Bearer scrape-token-0123456789abcdeX'],
      ['a shorter token', 'Bearer scrape'],
      ['the token without Bearer', TOKEN],
    ])('refuses %s with 401', async (_label, authorization) => {
      const response = await scrape(authorization)
      expect(response.statusCode).toBe(401)
      expect(response.json().code).toBe('not_authenticated')
    })

    it('counts requests by route pattern, attempts started once and submitted once, and reports the pool', async () => {
      const learner = await createUser(t.database)
      const { quiz } = await createQuiz(t.database, { start_time: t.clock.now() - 60_000 }, { questionCount: 2 })
      const headers = await bearerFor(t.tokens, learner)
      for (const n of [1, 2]) {
        expect((await t.app.inject({ method: 'GET', url: `/api/quizzes/${quiz.id}/`, headers })).statusCode).toBe(200)
        const question = await t.app.inject({ method: 'GET', url: `/api/quizzes/${quiz.id}/question/${n}/`, headers })
        expect(question.statusCode).toBe(200)
      }
      const submit = () =>
        t.app.inject({ method: 'POST', url: `/api/quizzes/${quiz.id}/submit/`, headers, payload: { answers: {} } })
      const first = await submit()
      expect(first.statusCode).toBe(200)
      // A retry naming the finished attempt answers the same result and is not a second submission.
      const retry = await t.app.inject({
        method: 'POST',
        url: `/api/quizzes/${quiz.id}/submit/`,
        headers,
        payload: { answers: {}, attempt_id: first.json().attempt_id },
      })
      expect(retry.statusCode).toBe(200)

      const response = await scrape(`Bearer ${TOKEN}`)
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-type']).toMatch(/^text\/plain/)
      const text = response.body
      expect(text).toContain('quiz_attempts_started_total 1\n')
      expect(text).toContain('quiz_attempts_submitted_total 1\n')
      expect(text).toMatch(
        /http_request_duration_seconds_count\{method="GET",route="\/api\/quizzes\/:id\/question\/:n\/",status="200"\} 2\n/,
      )
      expect(text).toMatch(
        /http_request_duration_seconds_count\{method="GET",route="\/api\/quizzes\/:id\/",status="200"\} 2\n/,
      )
      expect(text).not.toMatch(/route="\/api\/quizzes\/\d/)
      expect(text).toMatch(/quiz_db_pool_connections\{state="size"\} \d+\n/)
      expect(text).toMatch(/quiz_db_pool_connections\{state="waiting"\} 0\n/)
      expect(text).toContain('nodejs_eventloop_lag_p99_seconds')
    })
  })
})
