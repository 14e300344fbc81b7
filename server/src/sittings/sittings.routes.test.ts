import { XMLValidator } from 'fast-xml-parser'
import jsQR from 'jsqr'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createBankQuestions, createQuiz, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { verifySheetCode } from './sheet/sheet-code'
import { sheetSecret } from './sitting-view'
import { injectWith } from '../../test/requests'
import { questionBody } from '../../test/fixtures/admin.fixtures'
import { multipleBody, numericBody } from '../../test/fixtures/question-types.fixtures'

const HELD_AT = '2026-11-28T04:15:00.000Z'

// API.md "Paper sittings": sittings and their frozen papers, booklets, rosters, sheets and their layout.
describe.each(dialects)('paper sittings on %s', (dialect) => {
  const t = useTestApp(dialect)

  async function call(headers: Record<string, string>, method: string, url: string, payload?: unknown) {
    const response = await injectWith(t.app, headers, method, url, payload)
    return {
      status: response.statusCode,
      body: response.body === '' || !String(response.headers['content-type']).includes('json') ? null : response.json(),
      raw: response.body,
      type: response.headers['content-type'],
    }
  }

  async function setup({ questionCount = 6, sets = 1 } = {}) {
    const admin = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const { quiz, questionIds } = await createQuiz(t.database, {}, { questionCount })
    const created = await call(admin, 'POST', `/api/admin/quizzes/${quiz.id}/sittings/`, { held_at: HELD_AT, sets })
    expect(created.status, created.raw).toBe(201)
    return { admin, quiz, questionIds, sitting: created.body }
  }

  describe('who may call', () => {
    const routes: [string, string, unknown?][] = [
      ['POST', '/api/admin/quizzes/1/sittings/', { held_at: HELD_AT }],
      ['GET', '/api/admin/quizzes/1/sittings/'],
      ['GET', '/api/admin/sittings/1/'],
      ['PATCH', '/api/admin/sittings/1/', { status: 'closed' }],
      ['DELETE', '/api/admin/sittings/1/'],
      ['GET', '/api/admin/sittings/1/paper/?set=A'],
      ['GET', '/api/admin/sittings/1/roster/'],
      ['PUT', '/api/admin/sittings/1/roster/', { learners: [] }],
      ['GET', '/api/admin/sittings/1/sheets/1.svg'],
      ['GET', '/api/admin/sittings/1/sheets/blank.svg?serial=1'],
      ['GET', '/api/admin/sittings/1/sheet-layout/?set=A'],
      ['GET', '/api/admin/sittings/1/scans/'],
      ['GET', '/api/admin/scans/1/'],
      ['GET', '/api/admin/scans/1/image'],
      ['GET', '/api/admin/scans/1/photos/1'],
      ['PATCH', '/api/admin/scans/1/', { set: 'A' }],
      ['DELETE', '/api/admin/scans/1/'],
    ]

    it.each(routes)('answers 401 without a token and 403 to a learner: %s %s', async (method, url, payload) => {
      await setup()
      const learner = await bearerFor(t.tokens, await createUser(t.database))
      const anonymous = await call({}, method, url, payload)
      expect(anonymous.status).toBe(401)
      expect(anonymous.body.code).toBe('not_authenticated')
      const refused = await call(learner, method, url, payload)
      expect(refused.status).toBe(403)
      expect(refused.body.code).toBe('permission_denied')
    })

    it('refuses a learner the scan upload before reading its body', async () => {
      await setup()
      const learner = await bearerFor(t.tokens, await createUser(t.database))
      const response = await call(
        { ...learner, 'content-type': 'multipart/form-data; boundary=x' },
        'POST',
        '/api/admin/sittings/1/scans/',
        '--x--',
      )
      expect(response.status).toBe(403)
    })
  })

  describe('sittings', () => {
    it('creates a sitting with the paper frozen, lists, reads, changes and deletes it', async () => {
      const { admin, quiz, sitting } = await setup({ sets: 3 })
      expect(sitting).toEqual({
        id: expect.any(Number),
        quiz_id: quiz.id,
        title: { en: quiz.title_en, ne: quiz.title_ne },
        held_at: HELD_AT,
        sets: ['A', 'B', 'C'],
        option_labels: 'latin',
        question_count: 6,
        status: 'open',
        roster_count: 0,
        scans: { recorded: 0, needs_review: 0 },
        booklet_pages: 4,
      })
      const list = await call(admin, 'GET', `/api/admin/quizzes/${quiz.id}/sittings/`)
      expect(list.body).toEqual({ count: 1, results: [sitting] })
      expect((await call(admin, 'GET', `/api/admin/sittings/${sitting.id}/`)).body).toEqual(sitting)

      const patched = await call(admin, 'PATCH', `/api/admin/sittings/${sitting.id}/`, {
        title: { en: 'Hall B mock', ne: 'हल ख' },
        held_at: '2026-11-29T10:00:00+05:45',
        status: 'closed',
        booklet_pages: 6,
      })
      expect(patched.status, patched.raw).toBe(200)
      expect(patched.body).toMatchObject({
        title: { en: 'Hall B mock', ne: 'हल ख' },
        held_at: '2026-11-29T04:15:00.000Z',
        status: 'closed',
        booklet_pages: 6,
      })
      const tooMany = await call(admin, 'PATCH', `/api/admin/sittings/${sitting.id}/`, { booklet_pages: 17 })
      expect(tooMany.status).toBe(400)

      expect((await call(admin, 'DELETE', `/api/admin/sittings/${sitting.id}/`)).status).toBe(204)
      expect((await call(admin, 'GET', `/api/admin/sittings/${sitting.id}/`)).status).toBe(404)
      const audit = await t.db
        .selectFrom('audit_events')
        .select(['action', 'entity_type'])
        .where('entity_type', '=', 'sitting')
        .orderBy('id')
        .execute()
      expect(audit.map((event) => event.action)).toEqual(['create', 'update', 'delete'])
    })

    it('freezes the paper when created: a question added to the quiz later is not in it', async () => {
      const { admin, quiz, sitting } = await setup()
      await call(admin, 'POST', `/api/admin/quizzes/${quiz.id}/questions/`, {
        text: { en: 'Added later' },
        options: [
          { text: { en: 'x' }, is_correct: true },
          { text: { en: 'y' }, is_correct: false },
        ],
      })
      expect((await call(admin, 'GET', `/api/admin/sittings/${sitting.id}/`)).body.question_count).toBe(6)
      const booklet = await call(admin, 'GET', `/api/admin/sittings/${sitting.id}/paper/?set=A`)
      expect(booklet.raw).not.toContain('Added later')
    })

    it('answers 404 for an unknown quiz or sitting, and 400 for a bad body', async () => {
      const { admin } = await setup()
      expect((await call(admin, 'POST', '/api/admin/quizzes/999/sittings/', { held_at: HELD_AT })).status).toBe(404)
      expect((await call(admin, 'GET', '/api/admin/quizzes/999/sittings/')).status).toBe(404)
      expect((await call(admin, 'GET', '/api/admin/sittings/999/')).status).toBe(404)
      expect((await call(admin, 'PATCH', '/api/admin/sittings/999/', { status: 'closed' })).status).toBe(404)
      expect((await call(admin, 'DELETE', '/api/admin/sittings/999/')).status).toBe(404)
      const bad = await call(admin, 'POST', '/api/admin/quizzes/1/sittings/', { held_at: 'tomorrow', sets: 5 })
      expect(bad.status).toBe(400)
      expect(bad.body.code).toBe('validation_error')
      expect(Object.keys(bad.body.errors).sort()).toEqual(['held_at', 'sets'])
      const badPatch = await call(admin, 'PATCH', '/api/admin/sittings/1/', { status: 'finished' })
      expect(badPatch.status).toBe(400)
    })

    it('refuses a paper a sheet cannot print: a question of more than five options, naming it', async () => {
      const admin = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
      const six = ['a', 'b', 'c', 'd', 'e', 'f'].map((text, i) => ({ text, is_correct: i === 0 }))
      const { quiz } = await createQuiz(
        t.database,
        {},
        { questions: [{ text: 'Fine' }, { text: 'Too wide', options: six }, { text: 'Fine too' }] },
      )
      const response = await call(admin, 'POST', `/api/admin/quizzes/${quiz.id}/sittings/`, { held_at: HELD_AT })
      expect(response.status).toBe(409)
      expect(response.body).toMatchObject({
        code: 'paper_not_printable',
        questions: [{ number: 2, question_id: expect.any(Number), options: 6 }],
      })
      expect(response.body.detail).toContain('question 2')
      expect(await t.db.selectFrom('sittings').selectAll().execute()).toEqual([])
    })

    it('refuses a paper of more than 200 questions, and one of none', async () => {
      const admin = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
      const { quiz } = await createQuiz(t.database, {}, { questionCount: 0 })
      const ids = await createBankQuestions(t.db, 'gk', 201, Date.now())
      const put = await call(admin, 'PUT', `/api/admin/quizzes/${quiz.id}/sections/`, {
        sections: [{ title: { en: 'All' }, items: ids.map((id) => ({ question_id: id })) }],
      })
      expect(put.status, put.raw).toBe(200)
      const response = await call(admin, 'POST', `/api/admin/quizzes/${quiz.id}/sittings/`, { held_at: HELD_AT })
      expect(response.status).toBe(409)
      expect(response.body).toMatchObject({ code: 'paper_not_printable', question_count: 201 })
      const { quiz: empty } = await createQuiz(t.database, {}, { questionCount: 0 })
      const none = await call(admin, 'POST', `/api/admin/quizzes/${empty.id}/sittings/`, { held_at: HELD_AT })
      expect(none.status).toBe(409)
      expect(none.body.code).toBe('paper_not_printable')
    })
  })

  describe('booklets', () => {
    it('gives set A in the paper order, and set B shuffled within sections with its options shuffled', async () => {
      const admin = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
      const { quiz } = await createQuiz(t.database, {}, { questionCount: 0 })
      const first = await createBankQuestions(t.db, 'first', 8, Date.now())
      const second = await createBankQuestions(t.db, 'second', 8, Date.now())
      await call(admin, 'PUT', `/api/admin/quizzes/${quiz.id}/sections/`, {
        sections: [
          { title: { en: 'One' }, marks_correct: 2, marks_wrong: 0.5, items: first.map((id) => ({ question_id: id })) },
          { title: { en: 'Two' }, items: second.map((id) => ({ question_id: id })) },
        ],
      })
      const created = await call(admin, 'POST', `/api/admin/quizzes/${quiz.id}/sittings/`, {
        held_at: HELD_AT,
        sets: 2,
        option_labels: 'devanagari',
      })
      const a = (await call(admin, 'GET', `/api/admin/sittings/${created.body.id}/paper/?set=A`)).body
      const b = (
        await call(admin, 'GET', `/api/admin/sittings/${created.body.id}/paper/`.replace('/paper/', '/paper/?set=B'))
      ).body
      expect(a.set).toBe('A')
      expect(a.instructions).toEqual({ en: expect.any(String), ne: expect.any(String) })
      expect(
        a.sections.map((s: { title: { en: string }; marks_correct: number; marks_wrong: number }) => [
          s.title.en,
          s.marks_correct,
          s.marks_wrong,
        ]),
      ).toEqual([
        ['One', 2, 0.5],
        ['Two', 1, 0.2],
      ])
      const texts = (paper: typeof a) =>
        paper.sections.map((s: { questions: { text: { en: string } }[] }) => s.questions.map((q) => q.text.en))
      expect(texts(a)).toEqual([first.map((_, i) => `first ${i}`), second.map((_, i) => `second ${i}`)])
      const numbers = b.sections.flatMap((s: { questions: { number: number }[] }) => s.questions.map((q) => q.number))
      expect(numbers).toEqual(Array.from({ length: 16 }, (_, i) => i + 1))
      // Shuffled within each section: the same questions per section, most likely in another order.
      expect(texts(b).map((section: string[]) => [...section].sort())).toEqual(
        texts(a).map((section: string[]) => [...section].sort()),
      )
      expect(texts(b)).not.toEqual(texts(a))
      const question = a.sections[0].questions[0]
      expect(question).toEqual({
        number: 1,
        type: 'choice',
        passage_id: null,
        text: { en: 'first 0', ne: '', html: null },
        image: null,
        options: [
          { label: 'क', text: { en: 'Right', ne: '', html: null }, image: null },
          { label: 'ख', text: { en: 'Wrong', ne: '', html: null }, image: null },
        ],
      })
      expect(JSON.stringify(b)).not.toContain('is_correct')
      const sets = b.sections.flatMap((s: { questions: { options: { text: { en: string } }[] }[] }) =>
        s.questions.map((q) => q.options[0]!.text.en),
      )
      // Options shuffled: some of set B's questions start with the wrong option (1 in 65,536 to fail by chance).
      expect(sets).toContain('Wrong')
      const missing = await call(admin, 'GET', `/api/admin/sittings/${created.body.id}/paper/?set=C`)
      expect(missing.status).toBe(400)
      expect(missing.body.errors.set).toBeDefined()
      expect((await call(admin, 'GET', `/api/admin/sittings/${created.body.id}/paper/?set=Q`)).status).toBe(400)
      expect((await call(admin, 'GET', '/api/admin/sittings/999/paper/?set=A')).status).toBe(404)
    })

    it('carries each type and a passage once, its questions naming it in every set (docs/decisions/131)', async () => {
      const admin = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
      const read = (en: string) => questionBody({ text: { en, ne: '' }, image: null })
      const quiz = await call(admin, 'POST', '/api/quizzes/create-from-json/', {
        title: { en: 'Typed sitting' },
        sections: [
          {
            items: [
              multipleBody(),
              {
                passage: { text: { en: 'Rivers of Nepal', ne: 'नेपालका नदी' }, image: null },
                items: [read('R1'), read('R2'), read('R3')],
              },
              numericBody(),
              read('Lone'),
            ],
          },
        ],
      })
      expect(quiz.status, quiz.raw).toBe(201)
      const created = await call(admin, 'POST', `/api/admin/quizzes/${quiz.body.quiz_id}/sittings/`, {
        held_at: HELD_AT,
        sets: 3,
      })
      expect(created.status, created.raw).toBe(201)
      const a = (await call(admin, 'GET', `/api/admin/sittings/${created.body.id}/paper/?set=A`)).body
      expect(a.passages).toEqual([
        { id: expect.any(Number), text: expect.objectContaining({ en: 'Rivers of Nepal' }), image: null },
      ])
      const passageId = a.passages[0].id
      type Printed = {
        number: number
        type: string
        text: { en: string }
        options: unknown[]
        passage_id: number | null
      }
      const questions = a.sections[0].questions as Printed[]
      expect(questions.map((q) => [q.type, q.passage_id, q.options.length])).toEqual([
        ['multiple', null, 4],
        ['choice', passageId, 4],
        ['choice', passageId, 4],
        ['choice', passageId, 4],
        ['numeric', null, 0],
        ['choice', null, 4],
      ])
      // The passage's text is sent once, not beside each of its three questions.
      expect(JSON.stringify(a).split('Rivers of Nepal')).toHaveLength(2)
      for (const set of ['B', 'C']) {
        const shuffledSet = (await call(admin, 'GET', `/api/admin/sittings/${created.body.id}/paper/?set=${set}`)).body
        const under = (shuffledSet.sections[0].questions as Printed[]).filter((q) => q.passage_id === passageId)
        expect(under.map((q) => q.text.en)).toEqual(['R1', 'R2', 'R3'])
        expect(under[2]!.number - under[0]!.number).toBe(2)
      }
    })
  })

  describe('rosters', () => {
    it('finds learners by username or phone, gives roll numbers from 1 and deals sets in turn', async () => {
      const { admin, sitting } = await setup({ sets: 2 })
      const sita = await createUser(t.database, { username: 'Sita', full_name: 'Sita Sharma' })
      const ram = await createUser(t.database, { username: 'ram' })
      const hari = await createUser(t.database, { username: 'hari' })
      const gita = await createUser(t.database, { username: 'gita' })
      const response = await call(admin, 'PUT', `/api/admin/sittings/${sitting.id}/roster/`, {
        learners: [
          { username: 'sita' },
          // As a spreadsheet may hold it: the country code, spaces and dashes.
          { phone_number: `+977 ${ram.phone_number.slice(0, 3)}-${ram.phone_number.slice(3)}`, roll_number: 2 },
          { username: 'hari', set: 'A' },
          { username: 'GITA', roll_number: 40 },
        ],
      })
      expect(response.status, response.raw).toBe(200)
      expect(response.body).toEqual({
        roster: [
          { roll_number: 1, set: 'A', user: { id: sita.id, username: 'Sita', full_name: 'Sita Sharma' } },
          { roll_number: 2, set: 'B', user: { id: ram.id, username: 'ram', full_name: '' } },
          { roll_number: 3, set: 'A', user: { id: hari.id, username: 'hari', full_name: '' } },
          { roll_number: 40, set: 'B', user: { id: gita.id, username: 'gita', full_name: '' } },
        ],
      })
      expect((await call(admin, 'GET', `/api/admin/sittings/${sitting.id}/roster/`)).body).toEqual(response.body)
      expect((await call(admin, 'GET', `/api/admin/sittings/${sitting.id}/`)).body.roster_count).toBe(4)
      // A PUT replaces the roster.
      const replaced = await call(admin, 'PUT', `/api/admin/sittings/${sitting.id}/roster/`, {
        learners: [{ username: 'ram' }],
      })
      expect(replaced.body.roster).toEqual([
        { roll_number: 1, set: 'A', user: expect.objectContaining({ id: ram.id }) },
      ])
    })

    it('refuses an unknown learner, a repeated roll number or learner, and a set not printed, storing nothing', async () => {
      const { admin, sitting } = await setup({ sets: 2 })
      await createUser(t.database, { username: 'sita' })
      await createUser(t.database, { username: 'ram' })
      const put = (learners: unknown[]) => call(admin, 'PUT', `/api/admin/sittings/${sitting.id}/roster/`, { learners })

      const unknown = await put([{ username: 'sita' }, { username: 'nobody' }])
      expect(unknown.status).toBe(400)
      expect(unknown.body).toMatchObject({
        code: 'validation_error',
        detail: 'No learner has the username "nobody".',
        errors: { 'learners.1.username': ['No learner has the username "nobody".'] },
      })
      const phone = await put([{ phone_number: '9800000000' }])
      expect(phone.body.errors).toEqual({ 'learners.0.phone_number': ['No learner has the phone number 9800000000.'] })
      const written = await put([{ phone_number: '+977 980-000-0000' }])
      expect(written.body.errors).toEqual({
        'learners.0.phone_number': ['No learner has the phone number +977 980-000-0000.'],
      })
      const repeated = await put([
        { username: 'sita', roll_number: 7 },
        { username: 'ram', roll_number: 7 },
      ])
      expect(repeated.status).toBe(400)
      expect(repeated.body.errors).toEqual({
        'learners.1.roll_number': ['Roll number 7 is given to more than one learner.'],
      })
      const twice = await put([{ username: 'sita' }, { username: 'SITA' }])
      expect(Object.keys(twice.body.errors)).toEqual(['learners.1'])
      const set = await put([{ username: 'sita', set: 'C' }])
      expect(Object.keys(set.body.errors)).toEqual(['learners.0.set'])
      const none = await put([{}])
      expect(Object.keys(none.body.errors)).toEqual(['learners.0'])
      const range = await put([{ username: 'sita', roll_number: 1_000_000 }])
      expect(range.status).toBe(400)
      expect(await t.db.selectFrom('sitting_roster').selectAll().execute()).toEqual([])
      expect((await call(admin, 'PUT', '/api/admin/sittings/999/roster/', { learners: [] })).status).toBe(404)
    })
  })

  describe('answer sheets', () => {
    /** The payload of the QR code a sheet prints, rendered at about 8 px/mm and read by jsQR. */
    async function qrPayloadOf(svg: string, qr: { x_mm: number; y_mm: number; size_mm: number }) {
      const png = await sharp(Buffer.from(svg), { density: 120 }).flatten({ background: '#fff' }).png().toBuffer()
      const px = (await sharp(png).metadata()).width! / 210
      const side = Math.round((qr.size_mm + 8) * px)
      const { data, info } = await sharp(png)
        .extract({
          left: Math.round((qr.x_mm - qr.size_mm / 2 - 4) * px),
          top: Math.round((qr.y_mm - qr.size_mm / 2 - 4) * px),
          width: side,
          height: side,
        })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true })
      return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data
    }

    it("draws a roster learner's sheet with a signed QR code, and a blank sheet with its serial", async () => {
      const { admin, sitting } = await setup({ sets: 2 })
      const sita = await createUser(t.database, { username: 'sita', full_name: 'Sita <Sharma>' })
      await call(admin, 'PUT', `/api/admin/sittings/${sitting.id}/roster/`, {
        learners: [{ username: 'sita', roll_number: 4521, set: 'B' }],
      })
      const sheet = await call(admin, 'GET', `/api/admin/sittings/${sitting.id}/sheets/4521.svg`)
      expect(sheet.status).toBe(200)
      expect(sheet.type).toMatch(/^image\/svg\+xml/)
      expect(XMLValidator.validate(sheet.raw)).toBe(true)
      expect(sheet.raw).toContain('viewBox="0 0 210 297"')
      expect(sheet.raw).toContain('Sita &lt;Sharma&gt;')
      expect(sheet.raw).toContain('Roll number 004521')
      expect(sheet.raw).toContain('Set B')
      // The code names the learner as well as the sitting and roll (docs/decisions/061).
      const layout = (await call(admin, 'GET', `/api/admin/sittings/${sitting.id}/sheet-layout/?set=B`)).body
      const payload = await qrPayloadOf(sheet.raw, layout.qr)
      expect(verifySheetCode(payload!, sheetSecret(t.config.jwtSecret), sitting.id)).toEqual({
        ok: true,
        code: { sittingId: sitting.id, kind: 'roster', rollNumber: 4521, userId: sita.id },
      })

      const blank = await call(admin, 'GET', `/api/admin/sittings/${sitting.id}/sheets/blank.svg?serial=12`)
      expect(blank.status).toBe(200)
      expect(blank.raw).toContain('Sheet 12')
      expect((await call(admin, 'GET', `/api/admin/sittings/${sitting.id}/sheets/blank.svg`)).status).toBe(400)
      expect((await call(admin, 'GET', `/api/admin/sittings/${sitting.id}/sheets/blank.svg?serial=0`)).status).toBe(400)
      expect((await call(admin, 'GET', `/api/admin/sittings/${sitting.id}/sheets/7.svg`)).status).toBe(404)
      expect((await call(admin, 'GET', `/api/admin/sittings/${sitting.id}/sheets/x.svg`)).status).toBe(404)
      expect((await call(admin, 'GET', '/api/admin/sittings/999/sheets/blank.svg?serial=1')).status).toBe(404)
    })

    it("names the quiz on the sheet, and a sitting's own title under it", async () => {
      const { admin, quiz, sitting } = await setup()
      await createUser(t.database, { username: 'sita' })
      await call(admin, 'PUT', `/api/admin/sittings/${sitting.id}/roster/`, { learners: [{ username: 'sita' }] })
      const title = (raw: string) => [...raw.matchAll(/<text[^>]*y="(?:22|26\.2)"[^>]*>([^<]*)</g)].map((m) => m[1])
      const sheet = await call(admin, 'GET', `/api/admin/sittings/${sitting.id}/sheets/1.svg`)
      expect(title(sheet.raw)).toEqual([quiz.title_en])
      const renamed = await call(admin, 'PATCH', `/api/admin/sittings/${sitting.id}/`, {
        title: { en: 'Saturday hall, Bagbazar' },
      })
      expect(renamed.status).toBe(200)
      for (const url of ['sheets/1.svg', 'sheets/blank.svg?serial=3']) {
        const named = await call(admin, 'GET', `/api/admin/sittings/${sitting.id}/${url}`)
        expect(title(named.raw), url).toEqual([quiz.title_en, 'Saturday hall, Bagbazar'])
      }
    })

    it('signs sheet codes with a key derived from the server secret, not the secret itself', () => {
      const secret = sheetSecret(t.config.jwtSecret)
      expect(secret).not.toBe(t.config.jwtSecret)
      expect(verifySheetCode('QZ1:1:R1:AAAAAAAAAAAAAAAA', secret, 1)).toEqual({ ok: false, refusal: 'forged' })
    })

    it('gives the layout of a set: A4 in millimetres, a row per question with its options', async () => {
      const { admin, sitting } = await setup({ questionCount: 3 })
      const layout = await call(admin, 'GET', `/api/admin/sittings/${sitting.id}/sheet-layout/?set=A`)
      expect(layout.status).toBe(200)
      expect(layout.body.page).toEqual({ width_mm: 210, height_mm: 297 })
      expect(layout.body.markers).toHaveLength(4)
      expect(
        layout.body.questions.map((q: { number: number; options: { label: string }[] }) => [
          q.number,
          q.options.map((o) => o.label).join(''),
        ]),
      ).toEqual([
        [1, 'ABCD'],
        [2, 'ABCD'],
        [3, 'ABCD'],
      ])
      expect(layout.body.roll).toHaveLength(6)
      expect(layout.body.set.map((s: { set: string }) => s.set)).toEqual(['A', 'B', 'C', 'D'])
      expect((await call(admin, 'GET', `/api/admin/sittings/${sitting.id}/sheet-layout/?set=B`)).status).toBe(400)
    })
  })
})
