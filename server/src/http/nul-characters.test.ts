import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createQuiz, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { multipart } from '../../test/auth-requests'
import { nulMessage } from '../lib/nul'

// Issue 72, item 6: PostgreSQL refuses text holding U+0000, so a NUL anywhere a string reached a query was a 500
// (SQLite stored it). Every route's body, query and parameters are refused as a 400 before they reach a service.

const NUL = '\u0000'

describe.each(dialects)('a NUL character in any text on %s', (dialect) => {
  const t = useTestApp(dialect)

  it('is a 400 at the field on the login, and the username and phone checks', async () => {
    const user = await createUser(t.database)
    for (const [url, payload, field] of [
      ['/api/token/', { username: `${user.username}${NUL}`, password: user.password }, 'username'],
      ['/api/token/', { username: user.username, password: `x${NUL}` }, 'password'],
      ['/api/users/check-username/', { username: `a${NUL}b` }, 'username'],
      ['/api/users/check-phone/', { phone_number: `98000${NUL}0000` }, 'phone_number'],
      ['/api/token/refresh/', { refresh: `a.b${NUL}.c` }, 'refresh'],
    ] as const) {
      const response = await t.app.inject({ method: 'POST', url, payload })
      expect(response.statusCode, url).toBe(400)
      expect(response.json()).toMatchObject({ code: 'validation_error', errors: { [field]: [expect.any(String)] } })
    }
  })

  it('is a 400 in a nested field, an array and a query string, and nothing is stored', async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    const headers = await bearerFor(t.tokens, admin)
    const { quiz } = await createQuiz(t.database)
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/quizzes/${quiz.id}/`,
      headers,
      payload: { title: { en: `Title${NUL}`, ne: '' } },
    })
    expect(patched.statusCode).toBe(400)
    expect(patched.json().errors).toHaveProperty(['title.en'])
    const kept = await t.database.db
      .selectFrom('quizzes')
      .select('title_en')
      .where('id', '=', quiz.id)
      .executeTakeFirst()
    expect(kept?.title_en).toBe(quiz.title_en)

    const search = await t.app.inject({ method: 'GET', url: `/api/admin/bank/questions/?search=a%00b`, headers })
    expect(search.statusCode).toBe(400)
    expect(search.json().errors).toHaveProperty('search')

    const tags = await t.app.inject({ method: 'GET', url: `/api/admin/bank/questions/?tag=%00`, headers })
    expect(tags.statusCode).toBe(400)
  })

  it('is a 404 in a path parameter, as any id that names nothing', async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/quizzes/1%00/',
      headers: await bearerFor(t.tokens, admin),
    })
    expect(response.statusCode).toBe(404)
  })

  it('is a 400 in a multipart field or file name, and nothing is stored', async () => {
    const learner = await createUser(t.database)
    const { authorization } = await bearerFor(t.tokens, learner)
    const profile = multipart({ full_name: `Sita${NUL}` })
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/api/users/profile/',
      payload: profile.payload,
      headers: { ...profile.headers, authorization },
    })
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toMatchObject({ code: 'validation_error', errors: { full_name: [nulMessage] } })
    const kept = await t.db.selectFrom('users').select('full_name').where('id', '=', learner.id).executeTakeFirst()
    expect(kept?.full_name).toBe(learner.full_name)

    const admin = await createUser(t.database, { is_admin: 1 })
    const file = multipart({}, [
      { field: 'file', filename: `q${NUL}.csv`, contentType: 'text/csv', data: Buffer.from('question_en\r\nA?\r\n') },
    ])
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/admin/imports/',
      payload: file.payload,
      headers: { ...file.headers, ...(await bearerFor(t.tokens, admin)) },
    })
    expect(upload.statusCode).toBe(400)
    expect(upload.json().errors).toHaveProperty('file')
  })
})
