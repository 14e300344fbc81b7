import { writeFile } from 'node:fs/promises'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app'
import type { FileStore } from '../src/files'
import { createLocalStore } from '../src/files/local-store'
import { createS3Store } from '../src/files/s3-store'
import { multipart } from './auth-requests'
import { dialects } from './dialects'
import { bearerFor, createQuiz, createUser } from './factories'
import { questionBody } from './fixtures/admin.fixtures'
import { dataUrl, png } from './fixtures/pictures'
import { expectNoFileBytesInTables } from './file-bytes'
import { noisyPhoto, photoUploads } from './photo-uploads'
import { startLocalS3, type LocalS3 } from './local-s3'
import { useTestApp } from './test-app'
import { writtenPaper } from './written-papers'

// Issue 76 (API.md "Operations", Files): after a run of uploads of every kind the app takes over HTTP, no table holds
// an image, and with the store unreachable each file's route answers 503 while the rest of the app answers as before.
// Sheet scans and booklet pages have their own such checks (sittings/scans.routes.test.ts, booklet-pages.routes.test.ts).

describe.each(dialects)('files in the file store, a whole run of uploads, on %s', (dialect) => {
  const t = useTestApp(dialect)
  let blocked: string
  let s3: LocalS3 | undefined

  beforeAll(async () => {
    blocked = await mkdtemp(path.join(tmpdir(), 'quiz-blocked-'))
    // A file where the store's directory should be: every read fails (ENOTDIR), as a lost mount does.
    await writeFile(path.join(blocked, 'files'), 'not a directory')
    if (process.env.TEST_FILE_STORE === 's3') s3 = await startLocalS3()
  })
  afterAll(async () => {
    await s3?.stop()
    await rm(blocked, { recursive: true, force: true })
  })

  /** The same kind of store as the app's, unreachable: a closed port for S3, a file for a directory locally. */
  const unreachableStore = (): FileStore =>
    s3
      ? createS3Store({ ...s3.settings, endpoint: 'http://127.0.0.1:9', timeoutMs: 500 })
      : createLocalStore(path.join(blocked, 'files'))

  async function uploadsOfEveryKind() {
    const admin = await createUser(t.database, { is_admin: 1 })
    const adminHeaders = await bearerFor(t.tokens, admin)
    // A question's picture and an option's.
    const { quiz } = await createQuiz(t.database, {}, { questionCount: 1 })
    const question = await t.app.inject({
      method: 'POST',
      url: `/api/admin/quizzes/${quiz.id}/questions/`,
      headers: adminHeaders,
      payload: questionBody({
        image: { picture: dataUrl(await png(60, 40)), caption: { en: 'A map' } },
        options: [
          {
            text: { en: 'Yes' },
            is_correct: true,
            image: { picture: dataUrl(await png(20, 10, { colour: '#00aa00' })) },
          },
          { text: { en: 'No' }, is_correct: false },
        ],
      }),
    })
    expect(question.statusCode, question.body).toBe(201)
    const pictureUrl: string = question.json().image.picture.url
    // A profile picture.
    const learner = await createUser(t.database)
    const learnerHeaders = await bearerFor(t.tokens, learner)
    const form = multipart({}, [
      { field: 'profile_picture', filename: 'me.png', contentType: 'image/png', data: await png(80, 80) },
    ])
    const profile = await t.app.inject({
      method: 'PUT',
      url: '/api/users/profile/',
      headers: { ...form.headers, ...learnerHeaders },
      payload: form.payload,
    })
    expect(profile.statusCode, profile.body).toBe(200)
    const profilePictureUrl: string = profile.json().profile_picture
    // A written answer's page, and its phone rendition.
    const paper = await writtenPaper(t)
    const begun = await paper.as(learner, 'GET', `/api/quizzes/${paper.quizId}/`)
    const base = `/api/attempts/${begun.body.attempt.id}/written/${paper.questionId}`
    const page = await photoUploads(t)(learner, `${base}/pages/`, await noisyPhoto(600, 800))
    expect(page.status).toBe(201)
    return {
      learner,
      learnerHeaders,
      base,
      pictureUrl,
      profilePictureUrl,
      pageUrl: page.body.url as string,
      phoneUrl: page.body.phone_url as string,
    }
  }

  it('keeps no image in any table: every byte column empty, no text column holding base64 or a data: URL', async () => {
    const run = await uploadsOfEveryKind()
    for (const url of [run.pictureUrl, run.profilePictureUrl, run.pageUrl, run.phoneUrl])
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(200)
    expect(await expectNoFileBytesInTables(t.database)).toEqual(
      expect.arrayContaining(['pictures.data', 'profile_pictures.data', 'page_images.data', 'page_images.phone_data']),
    )
  })

  /** A sheet's scan and a booklet page, their rows as the sittings' uploads write them, their files in the store. */
  async function scanAndBookletPage() {
    const admin = await createUser(t.database, { is_admin: 1 })
    const { quiz } = await createQuiz(t.database, {}, { questionCount: 1 })
    const sitting = await t.db
      .insertInto('sittings')
      .values({ quiz_id: quiz.id, title_en: 'S', held_at: 0, revision_ids: '[]', sets: '[]', created_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow()
    const photo = await noisyPhoto(200, 300)
    await t.files.put('scans/run-1', photo, 'image/jpeg')
    const scan = await t.db
      .insertInto('sitting_scans')
      .values({
        sitting_id: sitting.id,
        sheet: 'R1',
        status: 'needs_review',
        answers: '{}',
        flags: '[]',
        photo: Buffer.alloc(0),
        photo_key: 'scans/run-1',
        photo_size: photo.length,
        photo_type: 'image/jpeg',
        created_at: 0,
        updated_at: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await t.files.put('pages/run-page', photo, 'image/jpeg')
    await t.db
      .insertInto('page_images')
      .values({
        hash: 'run-page',
        data: Buffer.alloc(0),
        data_key: 'pages/run-page',
        data_size: photo.length,
        content_type: 'image/jpeg',
        width: 200,
        height: 300,
        created_at: 0,
      })
      .execute()
    const page = await t.db
      .insertInto('booklet_pages')
      .values({
        sitting_id: sitting.id,
        sheet: 'B1',
        serial: 1,
        page_number: 1,
        status: 'needs_review',
        roll_number: null,
        user_id: null,
        questions: '[]',
        flags: '[]',
        question_box: '{}',
        image_hash: 'run-page',
        answer_hash: null,
        upload_hash: 'run-page',
        scanned_by: null,
        created_at: 0,
        updated_at: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return {
      headers: await bearerFor(t.tokens, admin),
      urls: [`/api/admin/scans/${scan.id}/image`, `/api/admin/pages/${page.id}/image`],
    }
  }

  it('answers 503 with Retry-After for each kind of file when the store is unreachable, and nothing else fails', async () => {
    const run = await uploadsOfEveryKind()
    const sittings = await scanAndBookletPage()
    for (const url of sittings.urls)
      expect((await t.app.inject({ method: 'GET', url, headers: sittings.headers })).statusCode, url).toBe(200)
    const app = await buildApp({ ...t, database: t.appDatabase, files: unreachableStore() }, { logger: false })
    await app.ready()
    try {
      for (const url of [run.pictureUrl, run.profilePictureUrl, run.pageUrl, run.phoneUrl]) {
        const response = await app.inject({ method: 'GET', url })
        expect(response.statusCode, url).toBe(503)
        expect(response.headers['retry-after'], url).toBe('5')
      }
      // A sheet's photo and a booklet page, as an admin reviewing them asks for them.
      for (const url of sittings.urls) {
        const response = await app.inject({ method: 'GET', url, headers: sittings.headers })
        expect(response.statusCode, url).toBe(503)
        expect(response.headers['retry-after'], url).toBe('5')
      }
      // An upload of each kind: 503, and no row of it.
      const pagesBefore = await t.db.selectFrom('written_answer_pages').select('id').execute()
      const form = multipart({}, [
        { field: 'image', filename: 'p.jpg', contentType: 'image/jpeg', data: await noisyPhoto(300, 400) },
      ])
      const page = await app.inject({
        method: 'POST',
        url: `${run.base}/pages/`,
        headers: { ...run.learnerHeaders, ...form.headers },
        payload: form.payload,
      })
      expect(page.statusCode).toBe(503)
      expect(await t.db.selectFrom('written_answer_pages').select('id').execute()).toEqual(pagesBefore)
      const picturesBefore = await t.db.selectFrom('pictures').select('hash').execute()
      const { quiz } = await createQuiz(t.database, {}, { questionCount: 1 })
      const question = await app.inject({
        method: 'POST',
        url: `/api/admin/quizzes/${quiz.id}/questions/`,
        headers: await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 })),
        payload: questionBody({
          image: { picture: dataUrl(await png(50, 50, { colour: '#0000ff' })), caption: { en: 'x' } },
        }),
      })
      expect(question.statusCode).toBe(503)
      expect(await t.db.selectFrom('pictures').select('hash').execute()).toEqual(picturesBefore)
      // The rest of the app answers as ever: the profile (without its picture's bytes) and health.
      expect(
        (await app.inject({ method: 'GET', url: '/api/users/profile/', headers: run.learnerHeaders })).statusCode,
      ).toBe(200)
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200)
    } finally {
      await app.close()
    }
  })
})
