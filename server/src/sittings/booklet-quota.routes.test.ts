import { writtenAnswerMessages } from '@quiz/contracts'
import { beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { noisyPhoto, photoUploads } from '../../test/photo-uploads'
import { bearerFor, createUser } from '../../test/factories'
import { photographBookletPage } from '../../test/fixtures/booklet-photos'
import { plainPhoto } from '../../test/fixtures/sheet-photos'
import { injectWith } from '../../test/requests'
import { testConfig, useTestApp } from '../../test/test-app'
import { writtenBody, writtenPaper } from '../../test/written-papers'
import { pageBytesOf } from '../written/upload-quota.repository'
import { sheetSecret } from './sitting-view'

// A booklet page joins a learner's written answer through written/, under the same upload quota as a phone's page.

const secret = sheetSecret(testConfig().jwtSecret)
let bookletPage: Buffer
beforeAll(async () => {
  bookletPage = await photographBookletPage(
    {
      secret,
      code: { sittingId: 1, kind: 'roster', page: 1, rollNumber: 1, userId: 2 },
      numbers: [1],
      marks: [{ number: 1, style: 'pen' }],
      pages: 1,
    },
    plainPhoto,
  )
}, 60_000)

describe.each(dialects)('booklet pages and the upload quota on %s', (dialect) => {
  const t = useTestApp(dialect, { UPLOAD_QUOTA_MB_PER_LEARNER: '1' })

  const upload = photoUploads(t)

  it("refuses a booklet page past the learner's quota, as a phone's page, and keeps nothing of it", async () => {
    const adminUser = await createUser(t.database, { is_admin: 1 })
    const admin = await bearerFor(t.tokens, adminUser)
    const created = await injectWith(t.app, admin, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Section Officer written' },
      questions: [writtenBody()],
    })
    const quizId: number = created.json().quiz_id
    const sitting = await injectWith(t.app, admin, 'POST', `/api/admin/quizzes/${quizId}/sittings/`, {
      held_at: '2026-11-28T04:15:00.000Z',
      booklet_pages: 1,
    })
    expect(sitting.json()).toMatchObject({ id: 1 })
    const sita = await createUser(t.database, { username: 'sita' })
    expect(sita.id).toBe(2)
    await injectWith(t.app, admin, 'PUT', '/api/admin/sittings/1/roster/', { learners: [{ username: 'sita' }] })

    // Sita's page of another quiz, answered online, made to fill her quota: another page online is refused.
    const paper = await writtenPaper(t)
    const begun = await paper.as(sita, 'GET', `/api/quizzes/${paper.quizId}/`)
    const url = `/api/attempts/${begun.body.attempt.id}/written/${paper.questionId}/pages/`
    expect((await upload(sita, url, await noisyPhoto())).status).toBe(201)
    await t.db
      .updateTable('page_images')
      .set({ data_size: 1024 * 1024, phone_data: null, phone_key: null, phone_size: null })
      .execute()
    expect((await upload(sita, url, await noisyPhoto())).body.code).toBe('upload_quota_exceeded')
    const used = await pageBytesOf(t.db, sita.id)
    const scanned = await upload(adminUser, '/api/admin/sittings/1/pages/', bookletPage)
    expect(scanned).toMatchObject({
      status: 409,
      body: { code: 'upload_quota_exceeded', detail: writtenAnswerMessages.uploadQuota },
    })
    expect(await pageBytesOf(t.db, sita.id)).toBe(used)
    expect(await t.db.selectFrom('booklet_pages').select('id').execute()).toEqual([])
  })
})
