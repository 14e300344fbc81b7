import { ImportDryRunSchema, importColumns, type ImportDryRun } from '@quiz/contracts'
import ExcelJS from 'exceljs'
import { beforeAll, describe, expect, it } from 'vitest'
import { postImport } from '../../test/auth-requests'
import { dialects } from '../../test/dialects'
import { bearerFor, createQuiz, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { tooDeep, tooLarge } from '@quiz/contracts/rules/tex-limits'
import {
  docxFile,
  encryptedOfficeFile,
  moodleXml,
  xlsxFile,
  zipBomb,
  type Cell,
  warmImportWorker,
} from '../../test/fixtures/import-files.fixtures'

const HOUR = 3_600_000
const header = [...importColumns] as string[]
/** A sheet row by column name. */
const sheetRow = (cells: Partial<Record<(typeof importColumns)[number], Cell>>): Cell[] =>
  header.map((column) => cells[column as keyof typeof cells] ?? '')

beforeAll(warmImportWorker, 180_000)

describe.each(dialects)('imports on %s', (dialect) => {
  const t = useTestApp(dialect)
  const asAdmin = async () => bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))

  const upload = async (
    headers: Record<string, string>,
    fields: Record<string, string>,
    file?: { data: Buffer; filename: string },
  ) => {
    const response = await postImport(t.app, headers, fields, file)
    const body = response.json()
    // The dry run is written as JSON text by the import worker, not by the route's serializer: it must still be
    // exactly the contract's shape, with no field outside it (the stored rows' hashes stay out).
    if (response.statusCode === 201) {
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(body).toStrictEqual(ImportDryRunSchema.parse(body))
    }
    return { status: response.statusCode, body }
  }
  const commit = async (headers: Record<string, string>, id: number, payload: object = {}) => {
    const response = await t.app.inject({ method: 'POST', url: `/api/admin/imports/${id}/commit/`, headers, payload })
    return { status: response.statusCode, body: response.json() }
  }
  const bankCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('questions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('deleted_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    )
  const importCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('imports')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )

  it('reads an xlsx with a Preeti-font column, converts it, and commits it once', async () => {
    const headers = await asAdmin()
    const file = await xlsxFile([
      header,
      sheetRow({
        question_en: 'Which body is the Public Service Commission?',
        question_ne: { text: 'nf]s ;]jf cfof]u', font: 'Preeti' },
        option_a_en: 'Constitutional',
        option_b_en: 'Private',
        correct: 'a',
        topic: 'Constitution',
        tags: 'PSC; Loksewa',
        difficulty: 'easy',
      }),
      sheetRow({}),
      sheetRow({
        question_en: '  Capital of Nepal? ',
        question_ne: 'g]kfnsf] /fhwfgL',
        option_a_en: 'Pokhara',
        option_b_en: 'Kathmandu',
        option_b_ne: { runs: [{ text: 'sf7df8f}+', font: 'Preeti' }] },
        correct: '(ख)',
      }),
      sheetRow({ question_en: 'No answer here', option_a_en: 'x', option_b_en: 'y' }),
      sheetRow({ question_en: 'One option', option_a_en: 'x', correct: 'A' }),
      sheetRow({
        question_en: 'PCS text',
        question_ne: { text: 'k"m', font: 'PCS NEPALI' },
        option_a_en: 'x',
        option_b_en: 'y',
        correct: 'B',
      }),
      sheetRow({ question_en: 'Bad maths $\\frac{1}{$', option_a_en: 'x', option_b_en: 'y', correct: 'B' }),
    ])
    const run = await upload(headers, { source: 'Archive 2079' }, { data: file, filename: 'questions.xlsx' })
    expect(run.status).toBe(201)
    const body = run.body as ImportDryRun
    expect(body.format).toBe('xlsx')
    expect(body.rows.map((row) => [row.row, row.status])).toEqual([
      [2, 'fixed'],
      [4, 'fixed'],
      [5, 'rejected'],
      [6, 'rejected'],
      [7, 'rejected'],
      [8, 'rejected'],
    ])
    expect(body.summary).toEqual({ ok: 0, fixed: 2, rejected: 4, duplicate: 0 })
    const [first, second, noAnswer, oneOption, pcs, maths] = body.rows
    expect(first!.question).toMatchObject({
      text: { en: 'Which body is the Public Service Commission?', ne: 'लोक सेवा आयोग' },
      topic: 'Constitution',
      tags: ['PSC', 'Loksewa'],
      difficulty: 'easy',
      source: 'Archive 2079',
    })
    expect(first!.converted).toEqual([{ field: 'text.ne', original: 'nf]s ;]jf cfof]u', unicode: 'लोक सेवा आयोग' }])
    // Under auto the _ne cell with no Devanagari that reads as Preeti is converted without a font; _en never.
    expect(second!.question.text).toEqual({ en: 'Capital of Nepal?', ne: 'नेपालको राजधानी' })
    expect(second!.question.options[1]).toMatchObject({ text: { en: 'Kathmandu', ne: 'काठमाडौं' }, is_correct: true })
    expect(second!.messages.map((m) => m.code).sort()).toEqual(
      ['font_converted', 'font_converted', 'letter_read', 'trimmed'].sort(),
    )
    expect(noAnswer!.messages).toContainEqual(expect.objectContaining({ field: 'correct', code: 'no_correct' }))
    expect(oneOption!.messages).toContainEqual(expect.objectContaining({ field: 'options', code: 'option_count' }))
    expect(pcs!.messages).toContainEqual(
      expect.objectContaining({
        field: 'text.ne',
        code: 'unsupported_font',
        message: expect.stringContaining('PCS Nepali'),
      }),
    )
    expect(maths!.messages).toContainEqual(expect.objectContaining({ field: 'text.en', code: 'invalid_maths' }))
    expect(await bankCount()).toBe(0)

    const done = await commit(headers, body.import_id)
    expect(done).toMatchObject({ status: 200, body: { imported: 2, duplicates: 0 } })
    expect(done.body.question_ids).toHaveLength(2)
    const stored = await t.app.inject({
      method: 'GET',
      url: `/api/admin/bank/questions/${done.body.question_ids[0]}/`,
      headers,
    })
    expect(stored.json()).toMatchObject({
      text: { ne: 'लोक सेवा आयोग' },
      tags: ['PSC', 'Loksewa'],
      source: 'Archive 2079',
    })
    // Committing again, or importing the same file again, writes nothing more.
    expect(await commit(headers, body.import_id)).toMatchObject({
      status: 200,
      body: { imported: 0, duplicates: 2, question_ids: [] },
    })
    const again = await upload(headers, { source: 'Archive 2079' }, { data: file, filename: 'questions.xlsx' })
    expect(again.body.summary).toEqual({ ok: 0, fixed: 0, rejected: 4, duplicate: 2 })
    expect(again.body.rows[0].duplicate_of).toEqual({ question_id: done.body.question_ids[0], row: null })
    expect(await bankCount()).toBe(2)
  })

  it('reads a docx by its runs’ fonts and says what cannot come in', async () => {
    const headers = await asAdmin()
    const file = docxFile([
      [{ text: 'Model question set 3' }],
      [{ text: '1. ' }, { text: 'g]kfnsf] /fhwfgL', font: 'Preeti' }, { text: ' sxfF 5 <', font: 'Preeti' }],
      [{ text: '-s_ kf]v/f', font: 'Preeti' }],
      [{ text: '(ख) ' }, { text: 'sf7df8f}+', font: 'Preeti' }],
      [{ text: 'उत्तर: ख' }],
      [{ text: '२. Which is the largest planet?' }],
      [{ text: 'a) Jupiter' }, { break: true }, { text: 'b) Mars' }],
      [{ text: 'Answer: A' }],
      [{ text: 'Hint: It is a gas giant.' }],
      [{ text: '3. Look at the picture.' }, { image: true }],
      [{ text: 'A. One' }],
      [{ text: 'B. Two' }],
      [{ text: 'Ans: B' }],
      [{ text: '4. Solve ' }, { math: 'x^2=4' }],
      [{ text: 'A. 2' }],
      [{ text: 'B. 3' }],
      [{ text: 'Ans: A' }],
      [{ text: '5. Read the table.' }],
      { table: [['a', 'b']], merged: true },
      [{ text: 'A. yes' }],
      [{ text: 'B. no' }],
      [{ text: 'Ans: A' }],
      [{ text: '6. ' }, { text: 'k"m', font: 'Sagarmatha' }],
      [{ text: 'A. x' }],
      [{ text: 'B. y' }],
      [{ text: 'Ans: A' }],
    ])
    const run = await upload(headers, {}, { data: file, filename: 'set3.docx' })
    expect(run.status).toBe(201)
    const rows = (run.body as ImportDryRun).rows
    expect(run.body.format).toBe('docx')
    expect(rows.map((row) => [row.row, row.status])).toEqual([
      [2, 'fixed'],
      [6, 'fixed'],
      [10, 'rejected'],
      [14, 'rejected'],
      [18, 'rejected'],
      [24, 'rejected'],
    ])
    expect(rows[0]!.question).toMatchObject({
      text: { en: '', ne: 'नेपालको राजधानी कहाँ छ ?' },
      options: [
        { text: { en: '', ne: 'पोखरा' }, is_correct: false },
        { text: { en: '', ne: 'काठमाडौं' }, is_correct: true },
      ],
    })
    expect(rows[0]!.converted.map((c) => c.unicode)).toEqual(['नेपालको राजधानी कहाँ छ ?', 'पोखरा', 'काठमाडौं'])
    expect(rows[1]!.question).toMatchObject({
      text: { en: 'Which is the largest planet?' },
      hint: { en: 'It is a gas giant.', ne: '' },
      options: [{ text: { en: 'Jupiter' }, is_correct: true }, { text: { en: 'Mars' } }],
    })
    expect(rows[1]!.messages.map((m) => m.code)).toEqual(['devanagari_numbering'])
    expect(rows[2]!.messages.map((m) => m.code)).toContain('image')
    expect(rows[3]!.messages.map((m) => m.code)).toContain('equation')
    expect(rows[4]!.messages.map((m) => m.code)).toContain('table')
    expect(rows[5]!.messages).toContainEqual(
      expect.objectContaining({ code: 'unsupported_font', message: expect.stringContaining('Sagarmatha') }),
    )
  })

  it('reads questions and options numbered by Word’s own list numbering', async () => {
    const headers = await asAdmin()
    const file = docxFile([
      { list: 'question', runs: [{ text: 'Which river is the longest in Nepal?' }] },
      { list: 'option', runs: [{ text: 'Koshi' }] },
      { list: 'option', runs: [{ text: 'Karnali' }] },
      [{ text: 'Answer: b' }],
      { list: 'question', runs: [{ text: 'g]kfnsf] /fhwfgL', font: 'Preeti' }] },
      { list: 'option', runs: [{ text: 'kf]v/f', font: 'Preeti' }] },
      { list: 'option', runs: [{ text: 'sf7df8f}+', font: 'Preeti' }] },
      [{ text: 'उत्तर: ख' }],
    ])
    const run = await upload(headers, {}, { data: file, filename: 'numbered.docx' })
    expect(run.status).toBe(201)
    expect(
      (run.body as ImportDryRun).rows.map((row) => [
        row.row,
        row.status,
        row.question.text,
        row.question.options.length,
      ]),
    ).toEqual([
      [1, 'ok', { en: 'Which river is the longest in Nepal?', ne: '' }, 2],
      [5, 'fixed', { en: '', ne: 'नेपालको राजधानी' }, 2],
    ])
  })

  it('reads a Moodle XML export: multichoice in (one or several right), other types rejected by name', async () => {
    const headers = await asAdmin()
    const run = await upload(headers, {}, { data: Buffer.from(moodleXml), filename: 'moodle.xml' })
    expect(run.status).toBe(201)
    const rows = (run.body as ImportDryRun).rows
    expect(run.body.format).toBe('moodle_xml')
    expect(rows.map((row) => [row.row, row.status])).toEqual([
      [15, 'ok'],
      [64, 'rejected'],
      [93, 'rejected'],
      [115, 'fixed'],
    ])
    expect(rows[0]!.question).toMatchObject({
      text: { en: 'What is the capital of Nepal?' },
      hint: { en: 'Kathmandu & its valley.' },
      topic: 'General Knowledge',
      options: [
        { text: { en: 'Pokhara' } },
        { text: { en: 'Kathmandu' }, is_correct: true },
        { text: { en: 'Biratnagar' } },
      ],
    })
    expect(rows[1]!.messages).toContainEqual(
      expect.objectContaining({ code: 'unsupported_type', message: expect.stringContaining('true/false') }),
    )
    expect(rows[2]!.question.text.ne).toBe('नेपालको सबैभन्दा लामो नदी कुन हो?')
    expect(rows[2]!.messages.map((m) => m.code)).toContain('image')
    // Multiple answer comes in as a multiple question; its split credit is the paper section's partial marking.
    expect(rows[3]!.question).toMatchObject({ type: 'multiple' })
    expect(rows[3]!.messages).toEqual([expect.objectContaining({ code: 'partial_marking' })])
  })

  it('reads GIFT, Aiken, pasted text and CSV with a BOM', async () => {
    const headers = await asAdmin()
    const gift = [
      '// PSC practice',
      '$CATEGORY: $course$/top/Science/Physics',
      '',
      '::Q1:: What is the unit of force? {',
      '  =Newton#Named after Isaac Newton.',
      '  ~Joule',
      '  ~Watt',
      '  ####Force is mass times acceleration.',
      '}',
      '',
      'Is 1 \\= 1? {T}',
      '',
      '::Q3:: Which costs \\{10\\}\\: the pen? {=pen ~book ~bag}',
      '',
      'Two right {=a =b ~c}',
    ].join('\n')
    const giftRun = await upload(headers, { text: gift })
    expect(giftRun.status).toBe(201)
    expect(giftRun.body.format).toBe('gift')
    const giftRows = (giftRun.body as ImportDryRun).rows
    expect(giftRows.map((row) => [row.row, row.status])).toEqual([
      [4, 'ok'],
      [11, 'rejected'],
      [13, 'ok'],
      [15, 'rejected'],
    ])
    expect(giftRows[0]!.question).toMatchObject({
      text: { en: 'What is the unit of force?' },
      topic: 'Physics',
      hint: { en: 'Force is mass times acceleration.' },
      options: [{ text: { en: 'Newton' }, is_correct: true }, { text: { en: 'Joule' } }, { text: { en: 'Watt' } }],
    })
    expect(giftRows[1]!.messages[0]).toMatchObject({
      code: 'unsupported_type',
      message: expect.stringContaining('true/false'),
    })
    expect(giftRows[2]!.question.text.en).toBe('Which costs {10}: the pen?')
    expect(giftRows[3]!.messages).toContainEqual(expect.objectContaining({ code: 'several_correct' }))

    const aiken =
      'What is 2 + 2?\nA. 3\nB. 4\nANSWER: B\n\nनेपालको राष्ट्रिय फूल कुन हो?\nA) लालीगुराँस\nB) सयपत्री\nANSWER: A\n'
    const aikenRun = await upload(headers, { text: aiken })
    expect(aikenRun.body.format).toBe('aiken')
    expect((aikenRun.body as ImportDryRun).rows.map((row) => [row.row, row.status, row.question.text])).toEqual([
      [1, 'ok', { en: 'What is 2 + 2?', ne: '' }],
      [6, 'ok', { en: '', ne: 'नेपालको राष्ट्रिय फूल कुन हो?' }],
    ])

    const pasted =
      'Set A\n\nQ1. Who wrote Muna Madan?\n(क) Laxmi Prasad Devkota\n(ख) Bhanubhakta\nसही उत्तर: (क)\nविषय: Literature\n'
    const textRun = await upload(headers, { text: pasted, format: 'text' })
    expect(textRun.body.rows).toMatchObject([
      {
        row: 3,
        status: 'fixed',
        question: { topic: 'Literature', options: [{ is_correct: true }, { is_correct: false }] },
        messages: [{ field: 'correct', code: 'letter_read' }],
      },
    ])

    const csv =
      '\uFEFFQuestion_EN,option_a_en,OPTION_B_EN,correct,tags\r\n"Multi\r\nline?",Yes,No,A,"x, y"\r\nSecond?,1,2,B,\r\n'
    const csvRun = await upload(headers, { tags: 'Default;Tag' }, { data: Buffer.from(csv), filename: 'q.csv' })
    expect(csvRun.body.format).toBe('csv')
    expect((csvRun.body as ImportDryRun).rows.map((row) => [row.row, row.status, row.question.tags])).toEqual([
      [2, 'ok', ['x', 'y']],
      [4, 'ok', ['Default', 'Tag']],
    ])
    expect(csvRun.body.rows[0].question.text.en).toBe('Multi\r\nline?')
  })

  it('marks duplicates of the bank and of earlier rows, and commits the named rows into a quiz', async () => {
    const headers = await asAdmin()
    const { quiz } = await createQuiz(t.database, {}, { questionCount: 0 })
    const text = [
      '1. First?',
      'A. x',
      'B. y',
      'Answer: A',
      '2. First?',
      'A. x',
      'B. y',
      'Answer: A',
      '3. Second?',
      'A. x',
      'B. y',
      'Answer: B',
      '4. Third?',
      'A. x',
      'B. y',
      'Answer: B',
    ].join('\n')
    const run = await upload(headers, { text })
    expect(run.body.rows.map((row: { status: string }) => row.status)).toEqual(['ok', 'duplicate', 'ok', 'ok'])
    expect(run.body.rows[1].duplicate_of).toEqual({ question_id: null, row: 1 })

    // Refusals change nothing.
    const refused = await commit(headers, run.body.import_id, { rows: [1, 5, 2], quiz_id: 999_999 })
    expect(refused.status).toBe(400)
    expect(refused.body.code).toBe('validation_error')
    expect(Object.keys(refused.body.errors).sort()).toEqual(['quiz_id', 'rows.1', 'rows.2'])
    expect(await bankCount()).toBe(0)

    const done = await commit(headers, run.body.import_id, { rows: [9, 1], quiz_id: quiz.id })
    expect(done).toMatchObject({ status: 200, body: { imported: 2, duplicates: 0 } })
    const detail = await t.app.inject({ method: 'GET', url: `/api/admin/quizzes/${quiz.id}/`, headers })
    expect(detail.json().questions.map((q: { id: number }) => q.id)).toEqual(done.body.question_ids)
    expect(detail.json().questions.map((q: { text: { en: string } }) => q.text.en)).toEqual(['First?', 'Second?'])
  })

  it('rejects rows whose formulas nest too deep or render too large, naming the formula, never a 500', async () => {
    // Issue 41 L1: TeX nested 2,000 deep overflowed KaTeX's stack inside the import's maths check.
    const deep = `$${'{'.repeat(2_000)}x${'}'.repeat(2_000)}$`
    const large = '$\\frac{1}{2}$ '.repeat(300).trim()
    const csv = `question_en,option_a_en,option_b_en,correct\r\n"${deep}",x,y,A\r\n"${large}",x,y,A\r\n$x^2$?,x,y,A\r\n`
    const run = await upload(await asAdmin(), {}, { data: Buffer.from(csv), filename: 'maths.csv' })
    expect(run.status).toBe(201)
    const rows = (run.body as ImportDryRun).rows
    expect(rows.map((row) => [row.row, row.status])).toEqual([
      [2, 'rejected'],
      [3, 'rejected'],
      [4, 'ok'],
    ])
    expect(rows[0]!.messages).toEqual([
      { field: 'text.en', code: 'invalid_maths', message: `The formula ${deep} ${tooDeep}` },
    ])
    expect(rows[1]!.messages).toEqual([
      { field: 'text.en', code: 'invalid_maths', message: `The formula $\\frac{1}{2}$ ${tooLarge}` },
    ])
  })

  it('forgets a dry run after IMPORT_TTL_HOURS', async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    const run = await upload(await bearerFor(t.tokens, admin), { text: '1. Q?\nA. x\nB. y\nAnswer: A' })
    t.clock.advance(24 * HOUR + 1)
    expect(await commit(await bearerFor(t.tokens, admin), run.body.import_id)).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    })
    expect(await bankCount()).toBe(0)
  })

  it('refuses unreadable files with import_unreadable, keeping nothing', async () => {
    const headers = await asAdmin()
    const refusals: [string, Buffer, string, RegExp][] = [
      ['zip bomb', zipBomb(60 * 1024 * 1024), 'big.xlsx', /more than 50 MB/],
      ['encrypted', encryptedOfficeFile, 'secret.xlsx', /password-protected/],
      ['mislabelled', Buffer.from('just some text'), 'questions.xlsx', /not an Excel workbook/],
      [
        'broken zip',
        Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(100, 7)]),
        'broken.docx',
        /damaged|not a Word/,
      ],
      ['pdf', Buffer.from('%PDF-1.7\n...'), 'paper.pdf', /PDF/],
      ['docx named xlsx', docxFile([[{ text: '1. Q' }]]), 'x.xlsx', /.+/],
    ]
    for (const [, data, filename, detail] of refusals) {
      const response = await upload(headers, { format: filename.endsWith('xlsx') ? 'xlsx' : '' }, { data, filename })
      expect(response.status, filename).toBe(400)
      expect(response.body.code).toBe('import_unreadable')
      expect(response.body.detail).toMatch(detail)
    }
    const many = ['question_en,option_a_en,option_b_en,correct']
    for (let n = 0; n < 5001; n++) many.push(`Q${n},a,b,A`)
    const tooMany = await upload(headers, {}, { data: Buffer.from(many.join('\n')), filename: 'many.csv' })
    expect(tooMany).toMatchObject({ status: 400, body: { code: 'import_unreadable' } })
    expect(tooMany.body.detail).toMatch(/5,000/)
    expect(await importCount()).toBe(0)
  })

  it('refuses a file over 20 MB with 413, bad fields with 400, and non-admins', async () => {
    const headers = await asAdmin()
    const big = await upload(headers, {}, { data: Buffer.alloc(20 * 1024 * 1024 + 10, 0x41), filename: 'big.csv' })
    expect(big).toMatchObject({ status: 413, body: { code: 'payload_too_large' } })
    const nothing = await upload(headers, {})
    expect(nothing).toMatchObject({
      status: 400,
      body: { code: 'validation_error', errors: { file: expect.any(Array) } },
    })
    const badFields = await upload(headers, {
      text: '1. Q\nA. x\nB. y\nAnswer: A',
      legacy_font: 'sagarmatha',
      difficulty: 'extreme',
    })
    expect(badFields.status).toBe(400)
    expect(Object.keys(badFields.body.errors).sort()).toEqual(['difficulty', 'legacy_font'])
    const json = await t.app.inject({ method: 'POST', url: '/api/admin/imports/', headers, payload: { text: 'x' } })
    expect(json.statusCode).toBe(415)
    const learner = await bearerFor(t.tokens, await createUser(t.database))
    expect((await upload(learner, { text: '1. Q\nA. x\nB. y\nAnswer: A' })).status).toBe(403)
    expect((await commit(learner, 1)).status).toBe(403)
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/imports/template.xlsx', headers: learner })).statusCode,
    ).toBe(403)
    expect(await importCount()).toBe(0)
  })

  it('serves templates that import cleanly, and an export that imports as duplicates only', async () => {
    const headers = await asAdmin()
    const template = await t.app.inject({ method: 'GET', url: '/api/admin/imports/template.xlsx', headers })
    expect(template.statusCode).toBe(200)
    expect(template.headers['content-type']).toContain('spreadsheetml')
    const fromTemplate = await upload(headers, {}, { data: template.rawPayload, filename: 'template.xlsx' })
    expect(fromTemplate.body.summary).toEqual({ ok: 2, fixed: 0, rejected: 0, duplicate: 0 })
    const csv = await t.app.inject({ method: 'GET', url: '/api/admin/imports/template.csv', headers })
    expect(csv.body.startsWith('\uFEFFquestion_en,question_ne,option_a_en')).toBe(true)
    const fromCsv = await upload(headers, {}, { data: csv.rawPayload, filename: 'template.csv' })
    expect(fromCsv.body.summary).toEqual({ ok: 2, fixed: 0, rejected: 0, duplicate: 0 })

    await commit(headers, fromTemplate.body.import_id)
    const exported = await t.app.inject({ method: 'GET', url: '/api/admin/bank/export.xlsx', headers })
    expect(exported.statusCode).toBe(200)
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(exported.rawPayload as unknown as ArrayBuffer)
    expect(workbook.worksheets[0]!.rowCount).toBe(3)
    const back = await upload(headers, {}, { data: exported.rawPayload, filename: 'bank.xlsx' })
    expect(back.body.summary).toEqual({ ok: 0, fixed: 0, rejected: 0, duplicate: 2 })
    // The bank list's filters apply.
    const filtered = await t.app.inject({
      method: 'GET',
      url: '/api/admin/bank/export.xlsx?topic=Mathematics',
      headers,
    })
    const one = new ExcelJS.Workbook()
    await one.xlsx.load(filtered.rawPayload as unknown as ArrayBuffer)
    expect(one.worksheets[0]!.rowCount).toBe(2)
  })

  it('exports a question whose key was changed with the decided key, and its import is still a duplicate', async () => {
    const headers = await asAdmin()
    const dryRun = await upload(headers, {
      text: '1. Which city is the capital of Nepal?\nA. Pokhara\nB. Kathmandu\nAnswer: A',
    })
    const { body: committed } = await commit(headers, dryRun.body.import_id)
    const [questionId] = committed.question_ids as number[]
    const read = await t.app.inject({ method: 'GET', url: `/api/admin/bank/questions/${questionId}/`, headers })
    const question = read.json()
    const kathmandu = question.options.find((option: { text: { en: string } }) => option.text.en === 'Kathmandu')
    const decided = await t.app.inject({
      method: 'POST',
      url: `/api/admin/questions/${questionId}/key/`,
      headers,
      payload: {
        revision_id: question.revision_id,
        action: 'change',
        correct_option_ids: [kathmandu.id],
        note: 'Kathmandu is the capital.',
        dry_run: false,
      },
    })
    expect(decided.statusCode, decided.body).toBe(200)

    const exported = await t.app.inject({ method: 'GET', url: '/api/admin/bank/export.xlsx', headers })
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(exported.rawPayload as unknown as ArrayBuffer)
    const sheet = workbook.worksheets[0]!
    const column = (name: string) => header.indexOf(name) + 1
    expect(sheet.getRow(2).getCell(column('option_b_en')).text).toBe('Kathmandu')
    expect(sheet.getRow(2).getCell(column('correct')).text).toBe('B')
    // The bank's question with its decided key is that question: importing the export finds it.
    const back = await upload(headers, {}, { data: exported.rawPayload, filename: 'bank.xlsx' })
    expect(back.body.summary).toEqual({ ok: 0, fixed: 0, rejected: 0, duplicate: 1 })
    // The file as first typed (the old key) is still that question too.
    const again = await upload(headers, {
      text: '1. Which city is the capital of Nepal?\nA. Pokhara\nB. Kathmandu\nAnswer: A',
    })
    expect(again.body.summary).toEqual({ ok: 0, fixed: 0, rejected: 0, duplicate: 1 })
  })
})
