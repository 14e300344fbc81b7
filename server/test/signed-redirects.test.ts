import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type App } from '../src/app'
import { createS3Store } from '../src/files/s3-store'
import { bearerFor, createQuiz, createUser } from './factories'
import { dialects } from './dialects'
import { questionBody } from './fixtures/admin.fixtures'
import { dataUrl, png } from './fixtures/pictures'
import { startLocalS3, type LocalS3 } from './local-s3'
import { noisyPhoto } from './photo-uploads'
import { multipart } from './auth-requests'
import { useTestApp } from './test-app'
import { writtenPaper } from './written-papers'

// S3_SIGNED_REDIRECTS (API.md "Operations", Files; docs/decisions/112): after the same checks as ever, a picture's
// and a written page's address answers 302 to the store's own signed address of at most 5 minutes; the bucket stays
// private, and what the app would refuse it refuses without a redirect.

describe.each(dialects)('redirects to signed addresses of the S3 store on %s', (dialect) => {
  const t = useTestApp(dialect)
  let s3: LocalS3
  beforeAll(async () => {
    s3 = await startLocalS3()
  })
  afterAll(async () => s3?.stop())

  async function redirectingApp(redirects = true): Promise<App> {
    const app = await buildApp(
      {
        ...t,
        database: t.appDatabase,
        config: { ...t.config, signedRedirects: redirects },
        files: createS3Store(s3.settings),
      },
      { logger: false },
    )
    await app.ready()
    return app
  }

  async function uploads(app: App) {
    const admin = await createUser(t.database, { is_admin: 1 })
    const { quiz } = await createQuiz(t.database, {}, { questionCount: 1 })
    const question = await app.inject({
      method: 'POST',
      url: `/api/admin/quizzes/${quiz.id}/questions/`,
      headers: await bearerFor(t.tokens, admin),
      payload: questionBody({ image: { picture: dataUrl(await png(60, 40)), caption: { en: 'A map' } } }),
    })
    expect(question.statusCode, question.body).toBe(201)
    const paper = await writtenPaper({ ...t, app })
    const learner = await createUser(t.database)
    const begun = await paper.as(learner, 'GET', `/api/quizzes/${paper.quizId}/`)
    const form = multipart({}, [
      { field: 'image', filename: 'p.jpg', contentType: 'image/jpeg', data: await noisyPhoto(400, 500) },
    ])
    const page = await app.inject({
      method: 'POST',
      url: `/api/attempts/${begun.body.attempt.id}/written/${paper.questionId}/pages/`,
      headers: { ...(await bearerFor(t.tokens, learner)), ...form.headers },
      payload: form.payload,
    })
    expect(page.statusCode, page.body).toBe(201)
    return {
      picture: question.json().image.picture.url as string,
      page: page.json().url as string,
      phone: page.json().phone_url as string,
    }
  }

  it('answers a picture, a page and its phone rendition with 302 to a signed address that serves the same bytes', async () => {
    const app = await redirectingApp()
    const plain = await redirectingApp(false)
    try {
      const urls = await uploads(app)
      for (const url of [urls.picture, urls.page, urls.phone]) {
        const through = await plain.inject({ method: 'GET', url })
        expect(through.statusCode, url).toBe(200)
        const response = await app.inject({ method: 'GET', url })
        expect(response.statusCode, url).toBe(302)
        const location = new URL(response.headers.location as string)
        expect(location.origin).toBe(s3.settings.endpoint)
        expect(Number(location.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(300)
        expect(response.headers['cache-control']).toMatch(/^private, max-age=\d+$/)
        expect(Number(/max-age=(\d+)/.exec(response.headers['cache-control'] as string)![1])).toBeLessThanOrEqual(300)
        const fetched = await fetch(location)
        expect(fetched.status).toBe(200)
        expect(Buffer.from(await fetched.arrayBuffer()).equals(through.rawPayload)).toBe(true)
        expect(fetched.headers.get('content-type')).toBe(through.headers['content-type'])
      }
    } finally {
      await app.close()
      await plain.close()
    }
  })

  it('redirects nothing the app would refuse: a forged or another page address, an unknown picture', async () => {
    const app = await redirectingApp()
    try {
      const urls = await uploads(app)
      const forged = urls.page.replace(/signature=[^&]+/, 'signature=AAAA')
      const another = urls.page.replace(
        /written-pages\/(\d+)\//,
        (_all, id: string) => `written-pages/${Number(id) + 1}/`,
      )
      for (const url of [forged, another, `/api/pictures/${'0'.repeat(64)}.webp`]) {
        const response = await app.inject({ method: 'GET', url })
        expect(response.statusCode, url).toBe(404)
        expect(response.headers.location).toBeUndefined()
      }
    } finally {
      await app.close()
    }
  })
})
