import { ImportDryRunSchema } from '@quiz/contracts'
import ExcelJS from 'exceljs'
import { beforeAll, describe, expect, it } from 'vitest'
import { multipart } from '../../test/auth-requests'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { docxFile, warmImportWorker } from '../../test/fixtures/import-files.fixtures'
import { useTestApp } from '../../test/test-app'

beforeAll(warmImportWorker, 180_000)

const CSV = [
  'question_en,option_a_en,option_b_en,correct,topic,type,marks,word_limit,model_answer_en,model_answer_ne',
  'Capital of Nepal?,Pokhara,Kathmandu,B,Geography,,,,,',
  'Explain federalism in Nepal.,,,,Constitution,written,10,300,Power shared by three tiers,',
  'लोक सेवा आयोगको भूमिका लेख्नुहोस्।,,,,Constitution,लिखित,5.5,,,संवैधानिक निकाय',
  'Too precise?,,,,Constitution,written,2.125,,,',
  'With options?,A,B,,Constitution,written,5,,,',
  'Matching?,,,,Constitution,matching,5,,,',
].join('\r\n')

describe.each(dialects)('written questions in import and export on %s', (dialect) => {
  const t = useTestApp(dialect)

  const upload = async (headers: Record<string, string>, data: Buffer, filename: string) => {
    const form = multipart({}, [{ field: 'file', filename, contentType: 'application/octet-stream', data }])
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/imports/',
      headers: { ...headers, ...form.headers },
      payload: form.payload,
    })
    expect(response.statusCode).toBe(201)
    return ImportDryRunSchema.parse(response.json())
  }

  it('imports a sheet row of type written with its marks, word limit and model answer; refuses bad ones by field; the export imports as duplicates', async () => {
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const run = await upload(headers, Buffer.from(CSV), 'written.csv')
    expect(run.rows.map((row) => [row.row, row.status])).toEqual([
      [2, 'ok'],
      [3, 'ok'],
      [4, 'ok'],
      [5, 'rejected'],
      [6, 'rejected'],
      [7, 'rejected'],
    ])
    expect(run.rows[1]!.question).toMatchObject({
      type: 'written',
      marks: 10,
      word_limit: 300,
      options: [],
      model_answer: { en: 'Power shared by three tiers', ne: '' },
    })
    expect(run.rows[2]!.question).toMatchObject({ type: 'written', marks: 5.5, word_limit: null })
    expect(run.rows[3]!.messages.map((message) => message.field)).toEqual(['marks'])
    expect(run.rows[4]!.messages.map((message) => message.field)).toEqual(['options'])
    expect(run.rows[5]!.messages).toMatchObject([{ field: 'type', code: 'unsupported_type' }])

    const committed = await t.app.inject({
      method: 'POST',
      url: `/api/admin/imports/${run.import_id}/commit/`,
      headers,
      payload: {},
    })
    expect(committed.json()).toMatchObject({ imported: 3 })
    const written = await t.app.inject({ method: 'GET', url: '/api/admin/bank/questions/?type=written', headers })
    expect(written.json().count).toBe(2)

    const exported = await t.app.inject({ method: 'GET', url: '/api/admin/bank/export.xlsx', headers })
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(exported.rawPayload as unknown as ArrayBuffer)
    const sheet = workbook.worksheets[0]!
    const header = (sheet.getRow(1).values as string[]).slice(1)
    const cell = (row: number, name: string) => sheet.getRow(row).getCell(header.indexOf(name) + 1).text
    const rowOf = (text: string) =>
      [2, 3, 4].find((row) => cell(row, 'question_en') === text || cell(row, 'question_ne') === text)!
    const federalism = rowOf('Explain federalism in Nepal.')
    expect([cell(federalism, 'type'), cell(federalism, 'marks'), cell(federalism, 'word_limit')]).toEqual([
      'written',
      '10',
      '300',
    ])
    const back = await upload(headers, exported.rawPayload, 'bank.xlsx')
    expect(back.summary).toEqual({ ok: 0, fixed: 0, rejected: 0, duplicate: 3 })
  })

  it("renders an imported model answer's table and maths, and refuses an unmatched $ at model_answer.en (issue 73)", async () => {
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const csv = [
      'question_en,topic,type,marks,model_answer_en,model_answer_ne',
      'Tabulate the exports.,Economy,written,5,"| Year | Tonnes |\n|---|---:|\n| 2080 | $x^2$ |",उत्तर $x^2$',
      'What does it cost?,Economy,written,5,It costs $5,',
    ].join('\r\n')
    const run = await upload(headers, Buffer.from(csv), 'model-answers.csv')
    expect(run.rows.map((row) => row.status)).toEqual(['ok', 'rejected'])
    expect(run.rows[1]!.messages).toMatchObject([{ field: 'model_answer.en', code: 'invalid_maths' }])
    const committed = await t.app.inject({
      method: 'POST',
      url: `/api/admin/imports/${run.import_id}/commit/`,
      headers,
      payload: {},
    })
    expect(committed.json()).toMatchObject({ imported: 1 })
    const listed = await t.app.inject({ method: 'GET', url: '/api/admin/bank/questions/?type=written', headers })
    const id: number = listed.json().results[0].id
    const question = await t.app.inject({ method: 'GET', url: `/api/admin/bank/questions/${id}/`, headers })
    const { html } = question.json().model_answer
    expect(html.en).toContain('<table')
    expect(html.en).toContain('<math')
    expect(html.ne).toContain('<math')
  })

  it('reads a pasted question without options and with a marks line as written, its answer line as the model answer', async () => {
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const form = multipart(
      {
        text: [
          '1. Explain federalism in Nepal.',
          'Marks: 10',
          'Answer: Power is shared by three tiers.',
          '2. संविधानको प्रस्तावना व्याख्या गर्नुहोस्।',
          'अङ्क: १५',
          '3. Capital of Nepal?',
          'A. Pokhara',
          'B. Kathmandu',
          'Answer: B',
        ].join('\n'),
      },
      [],
    )
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/imports/',
      headers: { ...headers, ...form.headers },
      payload: form.payload,
    })
    const run = ImportDryRunSchema.parse(response.json())
    expect(run.rows.map((row) => [row.status, row.question.type ?? 'choice', row.question.marks ?? null])).toEqual([
      ['ok', 'written', 10],
      ['ok', 'written', 15],
      ['ok', 'choice', null],
    ])
    expect(run.rows[0]!.question.model_answer).toEqual({ en: 'Power is shared by three tiers.', ne: '' })
    expect(run.rows[0]!.question.text.en).toBe('Explain federalism in Nepal.')
  })

  it('reads a Word question without options and with a marks line as written, beside a choice question', async () => {
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const file = docxFile([
      { list: 'question', runs: [{ text: 'Discuss the ' }, { text: 'fundamental rights.' }] },
      [{ text: 'Marks: 10' }],
      { list: 'question', runs: [{ text: 'Capital of Nepal?' }] },
      { list: 'option', runs: [{ text: 'Pokhara' }] },
      { list: 'option', runs: [{ text: 'Kathmandu' }] },
      [{ text: 'Answer: b' }],
    ])
    const run = await upload(headers, file, 'questions.docx')
    expect(run.rows.map((row) => [row.status, row.question.type ?? 'choice', row.question.marks ?? null])).toEqual([
      ['ok', 'written', 10],
      ['ok', 'choice', null],
    ])
    expect(run.rows[0]!.question.text.en).toBe('Discuss the fundamental rights.')
    expect(run.rows[0]!.question.options).toEqual([])
  })
})
