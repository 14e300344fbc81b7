import { writtenAnswerMessages } from '@quiz/contracts'
import { describe, expect, it } from 'vitest'
import type { UserRow } from '../db/schema'
import { dialects } from '../../test/dialects'
import { noisyPhoto, photoUploads } from '../../test/photo-uploads'
import { bearerFor, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { writtenPaper } from '../../test/written-papers'
import { pageBytesOf } from './upload-quota.repository'

// UPLOAD_QUOTA_MB_PER_LEARNER (issue 72's note, docs/decisions/088): a learner's kept pages are bounded in bytes.

describe.each(dialects)('the upload quota on %s', (dialect) => {
  const t = useTestApp(dialect, { UPLOAD_QUOTA_MB_PER_LEARNER: '1' })

  const upload = photoUploads(t)

  it("refuses a page past the learner's quota with 409 upload_quota_exceeded, and not another learner's", async () => {
    const paper = await writtenPaper(t)
    const start = async (user: UserRow) => {
      const begun = await paper.as(user, 'GET', `/api/quizzes/${paper.quizId}/`)
      return `/api/attempts/${begun.body.attempt.id}/written/${paper.questionId}/pages/`
    }
    const maya = await createUser(t.database)
    const url = await start(maya)
    const kept: number[] = []
    let refused: Awaited<ReturnType<typeof upload>> | undefined
    for (let i = 0; i < 12 && !refused; i++) {
      const sent = await upload(maya, url, await noisyPhoto(700, 900))
      if (sent.status === 201) kept.push(sent.body.id)
      else refused = sent
    }
    expect(kept.length).toBeGreaterThan(0)
    expect(refused).toMatchObject({
      status: 409,
      body: { code: 'upload_quota_exceeded', detail: writtenAnswerMessages.uploadQuota },
    })
    expect(await pageBytesOf(t.db, maya.id)).toBeLessThanOrEqual(1024 * 1024)

    const hari = await createUser(t.database)
    expect((await upload(hari, await start(hari), await noisyPhoto(700, 900))).status).toBe(201)
    // A page deleted gives its bytes back.
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `${url}${kept[0]}/`,
      headers: await bearerFor(t.tokens, maya),
    })
    expect(removed.statusCode).toBe(204)
    expect((await upload(maya, url, await noisyPhoto(700, 900))).status).toBe(201)
  })
})
