import { describe, expect, it } from 'vitest'
import { multipart } from '../../test/auth-requests'
import { dialects } from '../../test/dialects'
import { bearerFor, createQuiz, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'

// docs/decisions/076: multipart bodies are read only by the routes that take uploads; elsewhere, the hot routes
// included, a multipart body is a media type the route does not take.
describe.each(dialects)('multipart bodies on %s', (dialect) => {
  const t = useTestApp(dialect)

  it('are refused with 415 by a route that takes JSON, and still read by an upload route', async () => {
    const learner = await createUser(t.database)
    const { authorization } = await bearerFor(t.tokens, learner)
    const quizId = (await createQuiz(t.database)).quiz.id
    const form = multipart({ answers: '{}' })
    for (const [method, url] of [
      ['POST', `/api/quizzes/${quizId}/submit/`],
      ['PUT', `/api/quizzes/${quizId}/answers/`],
      ['POST', '/api/token/'],
    ] as const) {
      const response = await t.app.inject({
        method,
        url,
        payload: form.payload,
        headers: { ...form.headers, authorization },
      })
      expect(response.statusCode, `${url}: ${response.body}`).toBe(415)
      expect(response.json()).toMatchObject({ code: 'unsupported_media_type' })
    }
    const profile = multipart({ preferred_language: 'ne' })
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/users/profile/',
      payload: profile.payload,
      headers: { ...profile.headers, authorization },
    })
    expect(saved.statusCode, saved.body).toBe(200)
    expect(saved.json()).toMatchObject({ preferred_language: 'ne' })
  })
})
