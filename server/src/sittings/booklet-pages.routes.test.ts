import { mixedBookletInstructions, sittingMessages, writtenBookletInstructions } from '@quiz/contracts'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { multipart } from '../../test/auth-requests'
import { dialects } from '../../test/dialects'
import { bearerFor, createQuiz, createUser } from '../../test/factories'
import { photographBookletPage, type BookletPageSpec } from '../../test/fixtures/booklet-photos'
import { plainPhoto, type MarkStyle, type PhotoSpec } from '../../test/fixtures/sheet-photos'
import { markedSheetSvg, photographNonSheet, photographSheet } from '../../test/fixtures/sheet-photos'
import { testConfig, useTestApp } from '../../test/test-app'
import { injectWith } from '../../test/requests'
import { questionBody } from '../../test/fixtures/admin.fixtures'
import { writtenBody } from '../../test/written-papers'
import { decodePasses } from '../lib/decode-gate'
import { sheetSecret } from './sitting-view'
import { expectNoFileBytesInTables } from '../../test/file-bytes'
import { failWrites, keysIn } from '../../test/failing-store'

// API.md "Written answers marked by rubric", "On paper": booklet pages printed, photographed, read, settled and
// joined to the learner's written answers (docs/decisions/075).

const HELD_AT = '2026-11-28T04:15:00.000Z'
const secret = sheetSecret(testConfig().jwtSecret)
// Made by setup in this order: the admin, then the learners the pages' codes name.
const ids = { sita: 2, ram: 3 }
const plain = plainPhoto

const page = (
  code: BookletPageSpec['code'],
  marks: [number, MarkStyle][],
  overrides: Partial<BookletPageSpec> = {},
): BookletPageSpec => ({
  secret,
  code,
  numbers: [1, 2],
  marks: marks.map(([number, style]) => ({ number, style })),
  pages: 2,
  ...overrides,
})
const roster = (user: number, roll: number, number: number) =>
  ({ sittingId: 1, kind: 'roster', page: number, rollNumber: roll, userId: user }) as const

const photos = {} as Record<string, Buffer>
beforeAll(async () => {
  const shoot = (spec: BookletPageSpec, seed: number, photo: Partial<PhotoSpec> = {}) =>
    photographBookletPage(spec, { ...plain, seed, ...photo })
  photos.sita1 = await shoot(page(roster(ids.sita, 1, 1), [[1, 'pen']]), 1)
  photos.sita1Again = await shoot(page(roster(ids.sita, 1, 1), [[1, 'blue']]), 9, { rotation: 90 })
  // One page holding the end of question 1 and all of question 2, photographed upside down.
  photos.sita2 = await shoot(
    page(roster(ids.sita, 1, 2), [
      [1, 'pen'],
      [2, 'pencil'],
    ]),
    2,
    { rotation: 180 },
  )
  photos.ramFaint = await shoot(page(roster(ids.ram, 2, 1), [[2, 'light']]), 3, { light: 'gradient' })
  // A blank booklet's first page filled by Ram (roll 2) for question 2: his page 1 twice over.
  photos.blankRam = await shoot(
    page({ sittingId: 1, kind: 'blank', page: 1, serial: 5 }, [[2, 'pen']], { handRoll: 2 }),
    4,
  )
  photos.blankRam2 = await shoot(
    page({ sittingId: 1, kind: 'blank', page: 2, serial: 5 }, [[2, 'pen']], { handRoll: 2 }),
    10,
  )
  photos.spareNone = await shoot(page({ sittingId: 1, kind: 'spare', serial: 3 }, [], { handRoll: 1 }), 5)
  photos.forged = await shoot(page(roster(ids.sita, 1, 1), [[1, 'pen']], { secret: 'guessed-secret' }), 6)
  photos.foreign = await shoot(page({ ...roster(ids.sita, 1, 1), sittingId: 2 }, [[1, 'pen']]), 7)
  photos.nonSheet = await photographNonSheet(8, 2)
  // An answer sheet of a choice-only sitting: Sita (roll 1) marks A for all of its 4 questions.
  photos.sheet = await photographSheet(
    markedSheetSvg(
      {
        secret,
        sittingId: 1,
        labels: 'latin',
        optionCounts: [4, 4, 4, 4],
        holder: { kind: 'roster', learnerName: 'Sita', rollNumber: 1, set: 'A' },
        learnerId: ids.sita,
        marks: [0, 1, 2, 3].map((question) => ({ question, option: 0, style: 'pen' as const })),
      },
      12,
    ),
    { ...plain, seed: 12 },
  )
  // A paper of choice questions 1 and 3 and written question 2: Sita's booklet page 1, and her sheet (B, then A).
  photos.mixed = await shoot(page(roster(ids.sita, 1, 1), [[2, 'pen']], { numbers: [2] }), 11)
  photos.mixedSheet = await photographSheet(
    markedSheetSvg(
      {
        secret,
        sittingId: 1,
        labels: 'latin',
        optionCounts: [4, 4],
        numbers: [1, 3],
        holder: { kind: 'roster', learnerName: 'Sita', rollNumber: 1, set: 'A' },
        learnerId: ids.sita,
        marks: [
          { question: 0, option: 1, style: 'pen' },
          { question: 1, option: 0, style: 'pencil' },
        ],
      },
      13,
    ),
    { ...plain, seed: 13 },
  )
}, 90_000)

describe.each(dialects)('booklet pages on %s', (dialect) => {
  const t = useTestApp(dialect)

  async function call(headers: Record<string, string>, method: string, url: string, payload?: unknown) {
    const response = await injectWith(t.app, headers, method, url, payload)
    const json = String(response.headers['content-type']).includes('json')
    return { status: response.statusCode, body: json ? response.json() : null, response }
  }

  async function upload(headers: Record<string, string>, photo: Buffer, replace?: boolean) {
    const form = multipart(replace === undefined ? {} : { replace: String(replace) }, [
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

  /** A written-only quiz of two questions, a sitting printing 2 booklet pages a learner, Sita (1) and Ram (2). */
  async function setup() {
    const adminUser = await createUser(t.database, { is_admin: 1, username: 'teacher' })
    const admin = await bearerFor(t.tokens, adminUser)
    const created = await call(admin, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Section Officer written' },
      questions: [writtenBody(), writtenBody({ text: { en: 'Explain the budget cycle.', ne: '' }, marks: 5 })],
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const quizId: number = created.body.quiz_id
    const sitting = await call(admin, 'POST', `/api/admin/quizzes/${quizId}/sittings/`, {
      held_at: HELD_AT,
      booklet_pages: 2,
    })
    expect(sitting.status, JSON.stringify(sitting.body)).toBe(201)
    expect(sitting.body).toMatchObject({ id: 1, booklet_pages: 2 })
    const sita = await createUser(t.database, { username: 'sita', full_name: 'Sita Sharma' })
    const ram = await createUser(t.database, { username: 'ram' })
    expect([sita.id, ram.id]).toEqual([ids.sita, ids.ram])
    const put = await call(admin, 'PUT', '/api/admin/sittings/1/roster/', {
      learners: [{ username: 'sita' }, { username: 'ram' }],
    })
    expect(put.status).toBe(200)
    return { admin, quizId, sita, ram }
  }

  it("prints each learner's pages, blank booklets and spare pages, and gives their geometry", async () => {
    const { admin } = await setup()
    const first = await call(admin, 'GET', '/api/admin/sittings/1/booklets/1.svg?page=1')
    expect(first.status).toBe(200)
    expect(first.response.headers['content-type']).toContain('image/svg+xml')
    const svg = first.response.body
    expect(svg).toContain('width="210mm" height="297mm"')
    expect(svg).toContain('Sita Sharma')
    expect(svg).toContain('Page 1 / 2')
    expect(svg).toContain('fill the bubble of each question')
    expect(svg).toContain('प्रश्नको गोलो')
    const second = await call(admin, 'GET', '/api/admin/sittings/1/booklets/1.svg?page=2')
    expect(second.response.body).toContain('Page 2 / 2')
    expect(second.response.body).not.toContain('प्रश्नको गोलो')
    expect((await call(admin, 'GET', '/api/admin/sittings/1/booklets/1.svg?page=3')).status).toBe(400)
    expect((await call(admin, 'GET', '/api/admin/sittings/1/booklets/9.svg')).status).toBe(404)
    expect((await call(admin, 'GET', '/api/admin/sittings/1/booklets/blank.svg?page=1')).status).toBe(400)
    const blank = await call(admin, 'GET', '/api/admin/sittings/1/booklets/blank.svg?serial=5&page=1')
    expect(blank.response.body).toContain('Roll number')
    const spare = await call(admin, 'GET', '/api/admin/sittings/1/booklets/extra.svg?serial=3')
    expect(spare.status).toBe(200)
    expect(spare.response.body).toContain('Spare page 3')

    const layout = await call(admin, 'GET', '/api/admin/sittings/1/booklet-layout/?set=A')
    expect(layout.status).toBe(200)
    expect(layout.body.questions.map((q: { number: number }) => q.number)).toEqual([1, 2])
    expect(layout.body.roll).toEqual([])
    expect(layout.body.markers).toHaveLength(4)
    const blankLayout = await call(admin, 'GET', '/api/admin/sittings/1/booklet-layout/')
    expect(blankLayout.body.roll).toHaveLength(6)
    expect((await call(admin, 'GET', '/api/admin/sittings/1/booklet-layout/?set=B')).status).toBe(400)

    // A written-only paper has no answer sheet, and its booklet says so.
    for (const url of ['sheets/1.svg', 'sheets/blank.svg?serial=1', 'sheet-layout/?set=A']) {
      const noSheet = await call(admin, 'GET', `/api/admin/sittings/1/${url}`)
      expect(noSheet.status).toBe(409)
      expect(noSheet.body).toMatchObject({ code: 'paper_not_printable', detail: sittingMessages.noChoiceQuestions })
    }
    const paper = await call(admin, 'GET', '/api/admin/sittings/1/paper/?set=A')
    expect(paper.body.instructions).toEqual(writtenBookletInstructions)

    const learner = await bearerFor(
      t.tokens,
      await t.db.selectFrom('users').selectAll().where('id', '=', ids.sita).executeTakeFirstOrThrow(),
    )
    expect((await call(learner, 'GET', '/api/admin/sittings/1/booklets/1.svg')).status).toBe(403)
  })

  it('records pages for their learner and questions, joins them to the written answers in page order', async () => {
    const { admin, quizId, sita } = await setup()
    const one = await upload(admin, photos.sita1!)
    expect(one.status, JSON.stringify(one.body)).toBe(201)
    expect(one.body).toMatchObject({
      kind: 'page',
      status: 'recorded',
      roll_number: 1,
      page_number: 1,
      spare: false,
      learner: { id: sita.id, username: 'sita', full_name: 'Sita Sharma' },
      questions: [1],
      flags: [],
    })
    const two = await upload(admin, photos.sita2!)
    expect(two.status, JSON.stringify(two.body)).toBe(201)
    expect(two.body).toMatchObject({ status: 'recorded', page_number: 2, questions: [1, 2], flags: [] })

    // The same photo again is the same page; another photo of a recorded page is refused unless it replaces.
    const again = await upload(admin, photos.sita1!)
    expect(again.status).toBe(200)
    expect(again.body.id).toBe(one.body.id)
    const retake = await upload(admin, photos.sita1Again!)
    expect(retake.status).toBe(409)
    expect(retake.body.code).toBe('page_already_scanned')
    const replaced = await upload(admin, photos.sita1Again!, true)
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(201)
    expect(replaced.body).toMatchObject({ id: one.body.id, status: 'recorded', questions: [1] })

    // A written-only sitting: the pages make Sita's paper attempt, as an answer sheet would.
    const attempts = await t.db.selectFrom('attempts').selectAll().where('user_id', '=', sita.id).execute()
    expect(attempts).toHaveLength(1)
    expect(attempts[0]).toMatchObject({ mode: 'paper', sitting_id: 1, quiz_id: quizId, status: 'finished' })
    const answers = await t.db
      .selectFrom('written_answers as w')
      .innerJoin('written_answer_pages as p', 'p.answer_id', 'w.id')
      .select(['w.question_id', 'w.status', 'p.number', 'p.image_hash'])
      .where('w.attempt_id', '=', attempts[0]!.id)
      .orderBy('w.question_id')
      .orderBy('p.number')
      .execute()
    // What joins is each page's image as markers see it (docs/decisions/089), not the photo the admin reviews.
    const pageRows = await t.db
      .selectFrom('booklet_pages')
      .select(['id', 'image_hash', 'answer_hash'])
      .orderBy('id')
      .execute()
    expect(pageRows.every((row) => row.answer_hash !== null && row.answer_hash !== row.image_hash)).toBe(true)
    const hashOf = (id: number) => pageRows.find((row) => row.id === id)!.answer_hash
    expect(answers.map((a) => [a.number, a.image_hash])).toEqual([
      [1, hashOf(one.body.id)],
      [2, hashOf(two.body.id)],
      [1, hashOf(two.body.id)],
    ])
    expect(new Set(answers.map((a) => a.question_id)).size).toBe(2)

    // Marked like photographed pages: the marker's next answer of question 1 carries both pages, no name.
    const marking = await call(admin, 'GET', `/api/admin/quizzes/${quizId}/marking/`)
    expect(marking.body.questions.map((q: { submitted: number }) => q.submitted)).toEqual([1, 1])
    const questionId = marking.body.questions[0].question_id
    const next = await call(admin, 'POST', `/api/admin/quizzes/${quizId}/marking/${questionId}/next/`)
    expect(next.status).toBe(200)
    expect(next.body.pages).toHaveLength(2)
    expect(JSON.stringify(next.body)).not.toContain('sita')
    // Each kept with its phone rendition, as a page sent online is (docs/decisions/078).
    const kept = await t.db.selectFrom('page_images').select(['hash', 'phone_key']).execute()
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.every((row) => row.phone_key !== null)).toBe(true)
    // In the file store, the rows holding their names only (docs/decisions/105).
    for (const row of kept) expect(await t.files.exists(row.phone_key!)).toBe(true)
    await expectNoFileBytesInTables(t.database)
    const phone = await t.app.inject({ method: 'GET', url: next.body.pages[0].phone_url })
    expect(phone.statusCode).toBe(200)
    expect(phone.headers['content-type']).toBe('image/webp')
    expect(await sharp(phone.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 720 })

    const image = await call(admin, 'GET', `/api/admin/pages/${one.body.id}/image`)
    expect(image.status).toBe(200)
    expect(image.response.headers['content-type']).toBe('image/jpeg')
  })

  it('flags what it cannot be sure of, and a person settles it', async () => {
    const { admin, ram } = await setup()
    const faint = await upload(admin, photos.ramFaint!)
    expect(faint.status, JSON.stringify(faint.body)).toBe(201)
    expect(faint.body).toMatchObject({ status: 'needs_review', learner: { id: ram.id }, questions: [] })
    expect(faint.body.flags).toEqual([
      { kind: 'question_unclear', marks: ['2'], box: expect.objectContaining({ turn: 0 }) },
    ])
    expect(await t.db.selectFrom('written_answers').selectAll().execute()).toEqual([])

    expect((await call(admin, 'PATCH', `/api/admin/pages/${faint.body.id}/`, { questions: [7] })).status).toBe(400)
    const settled = await call(admin, 'PATCH', `/api/admin/pages/${faint.body.id}/`, { questions: [2] })
    expect(settled.status).toBe(200)
    expect(settled.body).toMatchObject({ status: 'recorded', questions: [2], flags: [] })
    expect(await t.db.selectFrom('written_answers').select('question_id').execute()).toHaveLength(1)

    // Ram's first page again, from a blank booklet: a second page 1 is for a person.
    const blank = await upload(admin, photos.blankRam!)
    expect(blank.status, JSON.stringify(blank.body)).toBe(201)
    expect(blank.body).toMatchObject({
      status: 'needs_review',
      roll_number: 2,
      learner: { id: ram.id },
      page_number: 1,
    })
    expect(blank.body.flags.map((flag: { kind: string }) => flag.kind)).toEqual(['duplicate_page'])
    // Its second page names Ram by its own roll grid (blank booklets are photocopied: no page vouches for another).
    const later = await upload(admin, photos.blankRam2!)
    expect(later.body).toMatchObject({ status: 'recorded', learner: { id: ram.id }, page_number: 2, questions: [2] })
    const discarded = await call(admin, 'PATCH', `/api/admin/pages/${blank.body.id}/`, { discard: true })
    expect(discarded.body.status).toBe('discarded')
    const ramPages = await t.db.selectFrom('written_answer_pages').select('number').execute()
    expect(ramPages.map((p) => p.number).sort()).toEqual([1, 2])

    // A spare page with no question bubble filled, its roll grid naming Sita; a person says it is Ram's, question 2.
    const spare = await upload(admin, photos.spareNone!)
    expect(spare.body).toMatchObject({ status: 'needs_review', spare: true, page_number: null, roll_number: 1 })
    expect(spare.body.flags.map((flag: { kind: string }) => flag.kind)).toEqual(['no_question', 'spare_page'])
    const review = await call(admin, 'GET', '/api/admin/sittings/1/pages/?status=needs_review')
    expect(review.body.results.map((p: { id: number }) => p.id)).toEqual([spare.body.id])
    expect((await call(admin, 'PATCH', `/api/admin/pages/${spare.body.id}/`, { roll_number: 9 })).status).toBe(400)
    const moved = await call(admin, 'PATCH', `/api/admin/pages/${spare.body.id}/`, { roll_number: 2, questions: [2] })
    expect(moved.body).toMatchObject({ status: 'recorded', learner: { id: ram.id }, questions: [2], flags: [] })
    const last = await t.db
      .selectFrom('written_answer_pages')
      .select('number')
      .orderBy('number', 'desc')
      .executeTakeFirstOrThrow()
    expect(last.number).toBe(3)
    expect((await call(admin, 'PATCH', '/api/admin/pages/999/', { discard: true })).status).toBe(404)
  })

  it('prints and reads a mixed paper: choice questions on the sheet, written ones in the booklet, one attempt', async () => {
    const adminUser = await createUser(t.database, { is_admin: 1, username: 'teacher' })
    const admin = await bearerFor(t.tokens, adminUser)
    // Questions 1 and 3 are choice questions, 2 is written: the sheet prints rows 1 and 3, the booklet number 2.
    const created = await call(admin, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Mixed paper' },
      questions: [
        questionBody({ image: null }),
        writtenBody(),
        questionBody({ image: null, text: { en: 'How many sides has a square?', ne: '' } }),
      ],
    })
    const sitting = await call(admin, 'POST', `/api/admin/quizzes/${created.body.quiz_id}/sittings/`, {
      held_at: HELD_AT,
    })
    expect(sitting.body.id).toBe(1)
    await createUser(t.database, { username: 'sita' })
    await call(admin, 'PUT', '/api/admin/sittings/1/roster/', { learners: [{ username: 'sita' }] })
    const numbers = (body: { questions: { number: number }[] }) => body.questions.map((q) => q.number)
    const sheetLayout = await call(admin, 'GET', '/api/admin/sittings/1/sheet-layout/?set=A')
    expect(numbers(sheetLayout.body)).toEqual([1, 3])
    expect(sheetLayout.body.questions[1].options).toHaveLength(4)
    expect(numbers((await call(admin, 'GET', '/api/admin/sittings/1/booklet-layout/?set=A')).body)).toEqual([2])
    const sheet = await call(admin, 'GET', '/api/admin/sittings/1/sheets/1.svg')
    expect(sheet.status).toBe(200)
    expect(sheet.response.body).toContain('answer them in your booklet')
    const paper = await call(admin, 'GET', '/api/admin/sittings/1/paper/?set=A')
    expect(paper.body.instructions).toEqual(mixedBookletInstructions)
    expect(paper.body.sections.flatMap(numbers)).toEqual([1, 2, 3])

    // The booklet page waits for the answer sheet's attempt.
    const page = await upload(admin, photos.mixed!)
    expect(page.body).toMatchObject({ status: 'recorded', questions: [2], learner: { id: ids.sita } })
    expect(await t.db.selectFrom('attempts').selectAll().execute()).toEqual([])

    // Sita's sheet, photographed: B at row "1", A at row "3".
    const scan = await upload(admin, photos.mixedSheet!)
    expect(scan.status, JSON.stringify(scan.body)).toBe(201)
    expect(scan.body).toMatchObject({ kind: 'sheet', status: 'recorded', answers: { 1: 'B', 3: 'A' }, flags: [] })
    const chosen = await t.db
      .selectFrom('attempt_answers')
      .innerJoin('question_options', 'question_options.id', 'attempt_answers.option_id')
      .innerJoin('question_revisions', 'question_revisions.id', 'question_options.revision_id')
      // Positions count from 1: A is the first option, B the second.
      .select(['attempt_answers.attempt_id', 'question_revisions.text_en', 'question_options.position'])
      .orderBy('question_revisions.text_en')
      .execute()
    expect(chosen).toEqual([
      { attempt_id: scan.body.attempt_id, text_en: 'How many sides has a square?', position: 1 },
      { attempt_id: scan.body.attempt_id, text_en: 'How many sides has a triangle?', position: 2 },
    ])
    // The written question's answer is the booklet page, on the sheet's attempt.
    const answers = await t.db.selectFrom('written_answers').select(['attempt_id', 'status']).execute()
    expect(answers).toEqual([{ attempt_id: scan.body.attempt_id, status: 'submitted' }])
    expect(await t.db.selectFrom('written_answer_pages').select('number').execute()).toEqual([{ number: 1 }])

    // A person may settle only the sheet's numbers: 2 is the written question.
    const wrong = await call(admin, 'PATCH', `/api/admin/scans/${scan.body.id}/`, { answers: { 2: 'A' } })
    expect(wrong.status).toBe(400)
    expect(wrong.body.errors['answers.2']).toEqual([sittingMessages.noSuchQuestion(2, [1, 3])])
  })

  it('reads an answer sheet sent to the same place as a sheet', async () => {
    const adminUser = await createUser(t.database, { is_admin: 1, username: 'teacher' })
    const admin = await bearerFor(t.tokens, adminUser)
    const { quiz } = await createQuiz(t.database, {}, { questionCount: 4 })
    await call(admin, 'POST', `/api/admin/quizzes/${quiz.id}/sittings/`, { held_at: HELD_AT })
    await createUser(t.database, { username: 'sita' })
    await call(admin, 'PUT', '/api/admin/sittings/1/roster/', { learners: [{ username: 'sita' }] })
    const passes = decodePasses()
    const read = await upload(admin, photos.sheet!)
    // The photo passes the decode gate twice, as one sent to scans/ does: once read (its code telling sheet from page
    // in that read) and once kept. The page reader's failed read before the sheet reader's made it three.
    expect(decodePasses() - passes).toBe(2)
    expect(read.status, JSON.stringify(read.body)).toBe(201)
    expect(read.body).toMatchObject({ kind: 'sheet', status: 'recorded', roll_number: 1, learner: { id: ids.sita } })
    expect((await call(admin, 'GET', '/api/admin/sittings/1/scans/')).body.count).toBe(1)
    expect((await call(admin, 'GET', '/api/admin/sittings/1/booklets/1.svg')).status).toBe(409)
  })

  it('answers 503 when the store cannot take a page, and a failed or refused page leaves no row and no file', async () => {
    const { admin } = await setup()
    expect((await upload(admin, photos.sita1!)).status).toBe(201)
    const tables = async () => ({
      pages: await t.db.selectFrom('booklet_pages').selectAll().execute(),
      images: await t.db.selectFrom('page_images').select(['hash', 'data_key', 'phone_key']).execute(),
      attempts: await t.db.selectFrom('attempts').selectAll().execute(),
    })
    const before = await tables()
    // The page and its answer region, each with a phone rendition: 4 files named by the 2 images' rows. The store is
    // shared by this file's tests: the same photos' files that earlier tests left, which no row here names, go first.
    const named = before.images.flatMap((image) => [image.data_key, image.phone_key])
    expect(named).toHaveLength(4)
    for (const key of await keysIn(t.files, 'pages/')) if (!named.includes(key)) await t.files.delete(key)
    const filesBefore = await keysIn(t.files, 'pages/')
    expect(filesBefore).toEqual([...named].sort())
    // A page's writes failing at each of its four files, and once more with the last written but its answer lost.
    const failures = [0, 1, 2, 3].map((after) => ({ after, kept: false })).concat([{ after: 3, kept: true }])
    for (const failure of failures) {
      const restore = failWrites(t.files, failure)
      const refused = await upload(admin, photos.sita2!)
      restore()
      expect(refused.status, JSON.stringify(failure)).toBe(503)
      expect(refused.body.code).toBe('service_unavailable')
      expect(await tables()).toEqual(before)
      expect(await keysIn(t.files, 'pages/'), JSON.stringify(failure)).toEqual(filesBefore)
    }
    // Written, then refused in the transaction that would record it: its files go again, the recorded page's stay.
    const retake = await upload(admin, photos.sita1Again!)
    expect(retake.status).toBe(409)
    expect(retake.body.code).toBe('page_already_scanned')
    expect(await tables()).toEqual(before)
    expect(await keysIn(t.files, 'pages/')).toEqual(filesBefore)
    expect((await upload(admin, photos.sita2!)).status).toBe(201)
    // Eight uploads, each read in a worker; against s3rver on a busy machine that takes its time.
  }, 90_000)

  it('refuses forged and foreign codes and photos it cannot read, keeping nothing', async () => {
    const { admin } = await setup()
    for (const photo of [photos.forged!, photos.foreign!]) {
      const refused = await upload(admin, photo)
      expect(refused.status).toBe(409)
      expect(refused.body.code).toBe('wrong_sitting')
    }
    const unreadable = await upload(admin, photos.nonSheet!)
    expect(unreadable.status).toBe(422)
    expect(unreadable.body.code).toBe('page_unreadable')
    expect(unreadable.body.detail).toMatch(/corner squares/)
    expect(unreadable.body.refusal).toBe('corners')
    const form = multipart({}, [
      { field: 'image', filename: 'x.txt', contentType: 'text/plain', data: Buffer.from('hi') },
    ])
    const notPhoto = await t.app.inject({
      method: 'POST',
      url: '/api/admin/sittings/1/pages/',
      headers: { ...admin, ...form.headers },
      payload: form.payload,
    })
    expect(notPhoto.statusCode).toBe(415)
    expect(await t.db.selectFrom('booklet_pages').selectAll().execute()).toEqual([])
  })
})
