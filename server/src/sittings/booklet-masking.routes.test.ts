import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { multipart } from '../../test/auth-requests'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { photographBookletPage, type BookletPageSpec } from '../../test/fixtures/booklet-photos'
import { plainPhoto, type PhotoSpec } from '../../test/fixtures/sheet-photos'
import { testConfig, useTestApp } from '../../test/test-app'
import { injectWith } from '../../test/requests'
import { writtenBody } from '../../test/written-papers'
import { openPage } from './reader/read-sheet'
import { mac } from './sheet/sheet-code'
import { sheetSecret } from './sitting-view'

// Issue 72, finding 4 (docs/decisions/089): a booklet page reaches markers and learners without the printed name,
// roll number or code, while an admin reviewing the scan still sees the whole photo; a spare page waits for a person.

const HELD_AT = '2026-11-28T04:15:00.000Z'
const secret = sheetSecret(testConfig().jwtSecret)
const ids = { sita: 2, ram: 3 }
const plain: PhotoSpec = { ...plainPhoto, seed: 21 }
const roster = (user: number, roll: number, page: number) =>
  ({ sittingId: 1, kind: 'roster', page, rollNumber: roll, userId: user }) as const
const spec = (
  code: BookletPageSpec['code'],
  marks: number[],
  extra: Partial<BookletPageSpec> = {},
): BookletPageSpec => ({
  secret,
  code,
  numbers: [1, 2],
  marks: marks.map((number) => ({ number, style: 'pen' as const })),
  pages: 2,
  ...extra,
})

const photos = {} as Record<string, Buffer>
beforeAll(async () => {
  // Two learners' page 1, the same photo but for what is printed for each: name, roll number and QR code.
  photos.sita = await photographBookletPage(spec(roster(ids.sita, 1, 1), [1], { learnerName: 'Sita Sharma' }), plain)
  photos.ram = await photographBookletPage(
    spec(roster(ids.ram, 2, 1), [1], { learnerName: 'Ram Bahadur Thapa Magar' }),
    plain,
  )
  photos.sitaRetake = await photographBookletPage(spec(roster(ids.sita, 1, 1), [1]), {
    ...plain,
    seed: 22,
    rotation: 90,
  })
  // Sita's page 2 as printed before decision 089, its code naming her user id.
  const legacy = `QZ1:1:W2R1U${ids.sita}`
  photos.legacy = await photographBookletPage(
    spec(roster(ids.sita, 1, 2), [2], { payload: `${legacy}:${mac(legacy, secret)}` }),
    { ...plain, seed: 24 },
  )
  photos.spare = await photographBookletPage(spec({ sittingId: 1, kind: 'spare', serial: 3 }, [2], { handRoll: 1 }), {
    ...plain,
    seed: 23,
  })
}, 90_000)

/** The photo as grey pixels at a fixed size, to compare two images place by place. */
const grey = async (jpeg: Buffer, width: number, height: number) =>
  new Uint8Array(await sharp(jpeg).resize(width, height, { fit: 'fill' }).greyscale().raw().toBuffer())

/** The largest mean difference of any 16 px block between two images of one size. */
function largestBlockDifference(a: Uint8Array, b: Uint8Array, width: number, height: number) {
  let largest = 0
  for (let top = 0; top + 16 <= height; top += 16)
    for (let left = 0; left + 16 <= width; left += 16) {
      let sum = 0
      for (let y = top; y < top + 16; y++)
        for (let x = left; x < left + 16; x++) sum += Math.abs(a[y * width + x]! - b[y * width + x]!)
      largest = Math.max(largest, sum / 256)
    }
  return largest
}

describe.each(dialects)('booklet pages as markers see them on %s', (dialect) => {
  const t = useTestApp(dialect)

  async function call(headers: Record<string, string>, method: string, url: string, payload?: unknown) {
    const response = await injectWith(t.app, headers, method, url, payload)
    const json = String(response.headers['content-type']).includes('json')
    return { status: response.statusCode, body: json ? response.json() : null, response }
  }

  async function upload(headers: Record<string, string>, photo: Buffer, replace = false) {
    const form = multipart(replace ? { replace: 'true' } : {}, [
      { field: 'image', filename: 'page.jpg', contentType: 'image/jpeg', data: photo },
    ])
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/sittings/1/pages/',
      headers: { ...headers, ...form.headers },
      payload: form.payload,
    })
    return { status: response.statusCode, body: response.json() }
  }

  const fetchImage = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url })
    expect(response.statusCode).toBe(200)
    return response.rawPayload
  }

  async function setup() {
    const admin = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1, username: 'teacher' }))
    const created = await call(admin, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Section Officer written' },
      questions: [writtenBody(), writtenBody({ text: { en: 'Explain the budget cycle.', ne: '' }, marks: 5 })],
    })
    const quizId: number = created.body.quiz_id
    await call(admin, 'POST', `/api/admin/quizzes/${quizId}/sittings/`, { held_at: HELD_AT, booklet_pages: 2 })
    await createUser(t.database, { username: 'sita', full_name: 'Sita Sharma' })
    await createUser(t.database, { username: 'ram', full_name: 'Ram Bahadur Thapa Magar' })
    await call(admin, 'PUT', '/api/admin/sittings/1/roster/', { learners: [{ username: 'sita' }, { username: 'ram' }] })
    const marking = await call(admin, 'GET', `/api/admin/quizzes/${quizId}/marking/`)
    return { admin, quizId, questionIds: marking.body.questions.map((q: { question_id: number }) => q.question_id) }
  }

  /** What a marker is given of a learner's answer to a question: its pages' images, full size and phone's. */
  async function markerImages(admin: Record<string, string>, userId: number, questionId: number) {
    const answer = await t.db
      .selectFrom('written_answers as w')
      .innerJoin('attempts as a', 'a.id', 'w.attempt_id')
      .select('w.id')
      .where('a.user_id', '=', userId)
      .where('w.question_id', '=', questionId)
      .executeTakeFirstOrThrow()
    const payload = await call(admin, 'GET', `/api/admin/written-answers/${answer.id}/`)
    expect(payload.status).toBe(200)
    return Promise.all(
      payload.body.pages.map(async (page: { url: string; phone_url: string }) => ({
        full: await fetchImage(page.url),
        phone: await fetchImage(page.phone_url),
      })),
    )
  }

  it('gives markers the page without its name, roll number or code; the admin keeps the whole photo', async () => {
    const { admin, quizId, questionIds } = await setup()
    const sita = await upload(admin, photos.sita!)
    expect(sita.status, JSON.stringify(sita.body)).toBe(201)
    expect(sita.body).toMatchObject({ status: 'recorded', learner: { id: ids.sita }, questions: [1] })
    const ram = await upload(admin, photos.ram!)
    expect(ram.body).toMatchObject({ status: 'recorded', learner: { id: ids.ram }, questions: [1] })

    // What the marker's next answer carries: its page's code cannot be read from it, nor from the phone's.
    const next = await call(admin, 'POST', `/api/admin/quizzes/${quizId}/marking/${questionIds[0]}/next/`)
    expect(next.status).toBe(200)
    expect(next.body.pages).toHaveLength(1)
    const given = await fetchImage(next.body.pages[0].url)
    expect(await openPage(given)).toBeTypeOf('string')
    expect(await openPage(await fetchImage(next.body.pages[0].phone_url))).toBeTypeOf('string')

    // Sita's and Ram's pages differ only in what is printed for each: what markers get of them is the same image.
    const [sitaGiven] = await markerImages(admin, ids.sita, questionIds[0])
    const [ramGiven] = await markerImages(admin, ids.ram, questionIds[0])
    const { width, height } = await sharp(sitaGiven!.full).metadata()
    expect(await sharp(ramGiven!.full).metadata()).toMatchObject({ width, height })
    const difference = largestBlockDifference(
      await grey(sitaGiven!.full, width!, height!),
      await grey(ramGiven!.full, width!, height!),
      width!,
      height!,
    )
    expect(difference).toBeLessThan(3)

    // The admin reviewing the scan sees the whole photo, code and all.
    const whole = await call(admin, 'GET', `/api/admin/pages/${sita.body.id}/image`)
    expect(whole.status).toBe(200)
    const opened = await openPage(whole.response.rawPayload)
    expect(opened).not.toBeTypeOf('string')
  })

  it('masks a replaced page and a spare page settled by hand; a spare page waits for a person', async () => {
    const { admin, questionIds } = await setup()
    expect((await upload(admin, photos.sita!)).status).toBe(201)
    const retake = await upload(admin, photos.sitaRetake!, true)
    expect(retake.status, JSON.stringify(retake.body)).toBe(201)
    expect(retake.body).toMatchObject({ status: 'recorded', questions: [1] })
    const [replaced] = await markerImages(admin, ids.sita, questionIds[0])
    expect(await openPage(replaced!.full)).toBeTypeOf('string')

    // A spare page read cleanly (Sita's roll, question 2) still needs a person before it joins an answer.
    const spare = await upload(admin, photos.spare!)
    expect(spare.status, JSON.stringify(spare.body)).toBe(201)
    expect(spare.body).toMatchObject({ status: 'needs_review', spare: true, roll_number: 1, questions: [2] })
    expect(spare.body.flags.map((flag: { kind: string }) => flag.kind)).toEqual(['spare_page'])
    const answers = () =>
      t.db.selectFrom('written_answers').select('question_id').where('question_id', '=', questionIds[1]).execute()
    expect(await answers()).toEqual([])
    const settled = await call(admin, 'PATCH', `/api/admin/pages/${spare.body.id}/`, { questions: [2] })
    expect(settled.body).toMatchObject({ status: 'recorded', flags: [], questions: [2] })
    expect(await answers()).toHaveLength(1)
    const [joined] = await markerImages(admin, ids.sita, questionIds[1])
    expect(await openPage(joined!.full)).toBeTypeOf('string')
  })

  it("finds a roster page's learner by its tag after the roster moved, and reads a code printed with a user id", async () => {
    const { admin, questionIds } = await setup()
    // Ram takes roll 1 and Sita roll 2 after printing: Sita's page names Sita, at her roll now, for a person to confirm.
    await call(admin, 'PUT', '/api/admin/sittings/1/roster/', { learners: [{ username: 'ram' }, { username: 'sita' }] })
    const moved = await upload(admin, photos.sita!)
    expect(moved.status, JSON.stringify(moved.body)).toBe(201)
    expect(moved.body).toMatchObject({ status: 'needs_review', roll_number: 2, learner: { id: ids.sita } })
    expect(moved.body.flags.map((flag: { kind: string }) => flag.kind)).toEqual(['roll'])
    // A page printed before decision 089 still finds its learner by the id in its code, and is masked as any.
    const legacy = await upload(admin, photos.legacy!)
    expect(legacy.status, JSON.stringify(legacy.body)).toBe(201)
    expect(legacy.body).toMatchObject({ status: 'needs_review', roll_number: 2, learner: { id: ids.sita } })
    const settled = await call(admin, 'PATCH', `/api/admin/pages/${legacy.body.id}/`, { roll_number: 2 })
    expect(settled.body).toMatchObject({ status: 'recorded', questions: [2] })
    const [page] = await markerImages(admin, ids.sita, questionIds[1])
    expect(await openPage(page!.full)).toBeTypeOf('string')
  })
})
