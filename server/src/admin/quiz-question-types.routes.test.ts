import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { TRIANGLE_SVG } from '../../test/fixtures/admin.fixtures'
import { requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { multipleBody, numericBody } from '../../test/fixtures/question-types.fixtures'

// API.md "Question types": a quiz's own question routes (POST and PUT /api/admin/quizzes/{id}/questions/) take every
// type, as the bank and create-from-JSON do, pictures included.
describe.each(dialects)("a quiz's own questions of every type on %s", (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsAs(t)

  it('adds a multiple question with a picture, turns it into a numeric one, and refuses a multiple without a right option', async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    const quiz = await as(admin, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Types in a quiz' },
      questions: [multipleBody()],
    })
    expect(quiz.status, JSON.stringify(quiz.body)).toBe(201)
    const url = `/api/admin/quizzes/${quiz.body.quiz_id}/questions/`

    const picture = { svg: TRIANGLE_SVG, caption: { en: 'A triangle', ne: '' } }
    const added = await as(admin, 'POST', url, multipleBody({ image: picture }))
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect(added.body.type).toBe('multiple')
    expect(added.body.image).not.toBeNull()
    expect(added.body.options.filter((o: { is_correct: boolean }) => o.is_correct)).toHaveLength(2)

    const changed = await as(admin, 'PUT', `${url}${added.body.id}/`, numericBody())
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect(changed.body).toMatchObject({ type: 'numeric', answer: { value: 3.14, tolerance: 0.01 }, decimals: 2 })

    const noneRight = multipleBody({
      options: [0, 1, 2].map((n) => ({ text: { en: `${n}`, ne: '' }, is_correct: false })),
    })
    const refused = await as(admin, 'PUT', `${url}${added.body.id}/`, noneRight)
    expect(refused.status).toBe(400)
    expect(Object.keys(refused.body.errors)).toEqual(['options'])
    const kept = await as(admin, 'GET', `/api/admin/quizzes/${quiz.body.quiz_id}/`)
    const stored = JSON.stringify(kept.body)
    expect(stored).toContain('"numeric"')
  })
})
