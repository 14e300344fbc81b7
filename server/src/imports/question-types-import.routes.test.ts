import { ImportDryRunSchema, importColumns, type ImportDryRun } from '@quiz/contracts'
import ExcelJS from 'exceljs'
import { beforeAll, describe, expect, it } from 'vitest'
import { postImport } from '../../test/auth-requests'
import { dialects } from '../../test/dialects'
import { bearerFor, createQuiz, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { docxFile, warmImportWorker, xlsxFile, type Cell } from '../../test/fixtures/import-files.fixtures'

// API.md "Question types: passages, several right options, numbers", its Import bullet, through the routes: sheet
// columns for multiple and numeric questions and passages, Word passages, commit into real bank passages, and an
// export that the import reads back. Moodle and GIFT are read in readers/question-types.test.ts.

beforeAll(warmImportWorker, 180_000)

type Column = (typeof importColumns)[number]
const header = [...importColumns] as string[]
const sheetRow = (cells: Partial<Record<Column, Cell>>): Cell[] => header.map((column) => cells[column as Column] ?? '')
const csvOf = (rows: Partial<Record<Column, string>>[]) =>
  Buffer.from(
    [header, ...rows.map((row) => header.map((column) => row[column as Column] ?? ''))]
      .map((cells) => cells.map((cell) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(','))
      .join('\n'),
  )

const koshi = 'The Koshi is the largest river of Nepal. It floods the Terai in the monsoon.'
const typedRows: Partial<Record<Column, string>>[] = [
  {
    question_en: 'Which river is the largest?',
    option_a_en: 'Koshi',
    option_b_en: 'Bagmati',
    correct: 'A',
    passage: koshi,
  },
  {
    question_en: 'Which are prime?',
    option_a_en: '2',
    option_b_en: '4',
    option_c_en: '3',
    correct: 'A; C',
    type: 'multiple',
  },
  {
    question_en: 'Give pi to two decimals.',
    type: 'numeric',
    answer_value: '3.14',
    answer_tolerance: '0.01',
    decimals: '2',
  },
  {
    question_en: 'When does the Koshi flood?',
    option_a_en: 'Winter',
    option_b_en: 'Monsoon',
    correct: 'B',
    passage: koshi,
  },
  {
    question_en: 'A whole number from 1 to 5.',
    type: 'numeric',
    answer_min: '1',
    answer_max: '5',
    decimals: '0',
    passage: koshi,
  },
  {
    question_en: 'Which are even?',
    option_a_en: '2',
    option_b_en: '3',
    option_c_en: '4',
    correct: 'a,c',
    type: 'multiple',
  },
]

describe.each(dialects)('question types imported on %s', (dialect) => {
  const t = useTestApp(dialect)
  const asAdmin = async () => bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
  const upload = async (headers: Record<string, string>, data: Buffer, filename: string) => {
    const response = await postImport(t.app, headers, {}, { data, filename })
    expect(response.statusCode, response.body).toBe(201)
    const body = response.json() as ImportDryRun
    expect(body).toStrictEqual(ImportDryRunSchema.parse(body))
    return body
  }
  const commit = async (headers: Record<string, string>, id: number, payload: object = {}) => {
    const response = await t.app.inject({ method: 'POST', url: `/api/admin/imports/${id}/commit/`, headers, payload })
    expect(response.statusCode, response.body).toBe(200)
    return response.json() as { imported: number; question_ids: number[] }
  }
  const get = async (headers: Record<string, string>, url: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers })
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }

  it('reads a CSV of multiple, numeric and passage rows, and commits one passage with its questions in order', async () => {
    const headers = await asAdmin()
    const run = await upload(headers, csvOf(typedRows), 'typed.csv')
    expect(run.rows.map((row) => row.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok'])
    expect(run.rows.map((row) => row.passage)).toEqual([
      { text: { en: koshi, ne: '' } },
      null,
      null,
      { text: { en: koshi, ne: '' } },
      { text: { en: koshi, ne: '' } },
      null,
    ])
    expect(run.rows[1]!.question).toMatchObject({ type: 'multiple' })
    expect(run.rows[1]!.question.options.map((option) => option.is_correct)).toEqual([true, false, true])
    expect(run.rows[5]!.question.options.map((option) => option.is_correct)).toEqual([true, false, true])
    expect(run.rows[2]!.question).toMatchObject({
      type: 'numeric',
      answer: { value: 3.14, tolerance: 0.01 },
      decimals: 2,
    })
    expect(run.rows[4]!.question).toMatchObject({ type: 'numeric', answer: { min: 1, max: 5 }, decimals: 0 })

    const { quiz } = await createQuiz(t.database, {}, { questionCount: 0 })
    const committed = await commit(headers, run.import_id, { quiz_id: quiz.id })
    expect(committed.imported).toBe(6)
    const ids = committed.question_ids
    const passages = await get(headers, '/api/admin/bank/passages/')
    expect(passages.count).toBe(1)
    const [passage] = passages.results
    expect(passage.text.en).toBe(koshi)
    // Rows 1, 4 and 5 of the sheet, in row order.
    const texts = await Promise.all(
      passage.question_ids.map(async (id: number) => (await get(headers, `/api/admin/bank/questions/${id}/`)).text.en),
    )
    expect(texts).toEqual(['Which river is the largest?', 'When does the Koshi flood?', 'A whole number from 1 to 5.'])
    // The passage's rows come first (together, at its first row's place), then rows 2, 3 and 6.
    const stored = await Promise.all(ids.map((id) => get(headers, `/api/admin/bank/questions/${id}/`)))
    expect(stored.map((question) => question.text.en)).toEqual([
      ...texts,
      'Which are prime?',
      'Give pi to two decimals.',
      'Which are even?',
    ])
    expect(stored[4]).toMatchObject({ type: 'numeric', answer: { value: 3.14, tolerance: 0.01 }, decimals: 2 })
    expect(stored[3]).toMatchObject({ type: 'multiple' })
    // In the quiz the passage is one item, its questions together and in its order.
    const detail = await get(headers, `/api/admin/quizzes/${quiz.id}/`)
    const items = (detail.sections as { items: object[] }[]).flatMap((section) => section.items)
    expect(items).toEqual([
      { passage_id: passage.id, question_ids: passage.question_ids },
      ...ids.slice(3).map((id) => ({ question_id: id })),
    ])

    // The same import committed again, or the same file imported again, makes no second passage.
    expect((await commit(headers, run.import_id)).imported).toBe(0)
    const again = await upload(headers, csvOf(typedRows), 'typed.csv')
    expect(again.rows.map((row) => row.status)).toEqual(Array(6).fill('duplicate'))
    expect((await commit(headers, again.import_id)).imported).toBe(0)
    expect((await get(headers, '/api/admin/bank/passages/')).count).toBe(1)
  })

  it('refuses invalid numbers and letters at their fields, with a sentence saying how to write them', async () => {
    const headers = await asAdmin()
    const run = await upload(
      headers,
      csvOf([
        { question_en: 'Pi?', type: 'numeric', answer_value: '3,14' },
        { question_en: 'Pi?', type: 'numeric', answer_value: '3.14', answer_tolerance: 'small' },
        { question_en: 'Range?', type: 'numeric', answer_min: '5', answer_max: '1' },
        { question_en: 'Range?', type: 'numeric', answer_min: '5' },
        { question_en: 'Pi?', type: 'numeric', answer_value: '3.14', decimals: '9' },
        { question_en: 'Pi?', type: 'numeric', answer_value: '3.1415926' },
        { question_en: 'Pi?', type: 'numeric', answer_value: '3.14', answer_tolerance: '-1' },
        { question_en: 'Pi?', type: 'numeric' },
        { question_en: 'Primes?', option_a_en: '2', option_b_en: '3', correct: 'A;F', type: 'multiple' },
        { question_en: 'Primes?', option_a_en: '2', option_b_en: '3', type: 'multiple' },
        { question_en: 'Pi?', type: 'fill in', answer_value: '3' },
        { question_en: 'Pi?', type: 'numeric', answer_value: '3.14', option_a_en: 'three' },
      ]),
      'bad.csv',
    )
    expect(run.rows.every((row) => row.status === 'rejected')).toBe(true)
    const said = run.rows.map((row) => row.messages.map((message) => [message.field, message.message]))
    expect(said[0]).toEqual([['answer.value', expect.stringContaining('"3,14" is not a number')]])
    expect(said[1]).toEqual([['answer.tolerance', expect.stringContaining('"small" is not a number')]])
    expect(said[2]).toEqual([['answer.max', "The range's min must not be above its max."]])
    expect(said[3]).toEqual([['answer.max', 'A range needs both its min and its max.']])
    expect(said[4]).toEqual([['decimals', expect.stringContaining('Decimals must be a whole number from 0 to 6')]])
    expect(said[5]).toEqual([['answer.value', 'A number with at most 6 decimals.']])
    expect(said[6]).toEqual([['answer.tolerance', 'The tolerance must be 0 or more.']])
    expect(said[7]).toEqual([['answer', expect.stringContaining('needs its answer')]])
    expect(said[8]).toEqual([['correct', expect.stringContaining('"F"')]])
    expect(said[9]).toEqual([['correct', 'No correct answer is given.']])
    expect(said[10]).toEqual([['type', expect.stringContaining('write choice, multiple, numeric or written')]])
    expect(said[11]).toEqual([['options', 'A numeric question has no options.']])
  })

  it('reads the same columns from an xlsx, a Nepali passage shared by its rows', async () => {
    const headers = await asAdmin()
    const passage = 'नेपालमा धेरै हिमाल छन्।'
    const file = await xlsxFile([
      header,
      sheetRow({
        question_ne: 'सबैभन्दा अग्लो हिमाल?',
        option_a_ne: 'सगरमाथा',
        option_b_ne: 'धौलागिरि',
        correct: 'क',
        passage,
      }),
      sheetRow({ question_ne: 'सगरमाथाको उचाइ (मिटर)?', type: 'numeric', answer_value: '8848.86', passage }),
    ])
    const run = await upload(headers, file, 'nepali.xlsx')
    expect(run.rows.map((row) => row.status)).toEqual(['ok', 'ok'])
    expect(run.rows.map((row) => row.passage)).toEqual([
      { text: { en: '', ne: passage } },
      { text: { en: '', ne: passage } },
    ])
    expect(run.rows[1]!.question.answer).toEqual({ value: 8848.86, tolerance: 0 })
    await commit(headers, run.import_id)
    const passages = await get(headers, '/api/admin/bank/passages/')
    expect(
      passages.results.map((found: { text: { ne: string }; question_ids: number[] }) => [
        found.text.ne,
        found.question_ids.length,
      ]),
    ).toEqual([[passage, 2]])
  })

  it("reads a Word file's Passage paragraph for the questions up to End of passage, and commits it", async () => {
    const headers = await asAdmin()
    const file = docxFile([
      [{ text: 'Passage: The Koshi is the largest river of Nepal.' }],
      [{ text: 'It floods the Terai in the monsoon.' }],
      [{ text: '1. Which river is the largest?' }],
      [{ text: 'A. Koshi' }],
      [{ text: 'B. Bagmati' }],
      [{ text: 'Answer: A' }],
      [{ text: '2. When does it flood?' }],
      [{ text: 'A. In winter' }],
      [{ text: 'B. In the monsoon' }],
      [{ text: 'Answer: B' }],
      [{ text: 'End of passage' }],
      [{ text: '3. Which is the capital?' }],
      [{ text: 'A. Kathmandu' }],
      [{ text: 'B. Pokhara' }],
      [{ text: 'Answer: A' }],
    ])
    const run = await upload(headers, file, 'passage.docx')
    const text = { en: 'The Koshi is the largest river of Nepal.\nIt floods the Terai in the monsoon.', ne: '' }
    expect(run.rows.map((row) => [row.status, row.passage])).toEqual([
      ['ok', { text }],
      ['ok', { text }],
      ['ok', null],
    ])
    const committed = await commit(headers, run.import_id)
    const [passage] = (await get(headers, '/api/admin/bank/passages/')).results
    expect(passage.question_ids).toEqual(committed.question_ids.slice(0, 2))
  })

  it('exports the type, key, decimals and passage columns, and the import reads them back', async () => {
    const headers = await asAdmin()
    const first = await upload(headers, csvOf(typedRows), 'typed.csv')
    await commit(headers, first.import_id)
    const exported = await t.app.inject({ method: 'GET', url: '/api/admin/bank/export.xlsx', headers })
    expect(exported.statusCode).toBe(200)
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(exported.rawPayload as unknown as ArrayBuffer)
    const sheet = workbook.worksheets[0]!
    const headings = (sheet.getRow(1).values as string[]).slice(1)
    for (const column of [
      'type',
      'answer_value',
      'answer_tolerance',
      'answer_min',
      'answer_max',
      'decimals',
      'passage_en',
      'passage_ne',
    ])
      expect(headings).toContain(column)
    const cell = (row: number, column: string) => sheet.getRow(row).getCell(headings.indexOf(column) + 1).text
    const byQuestion = new Map(
      Array.from({ length: sheet.rowCount - 1 }, (_, n) => [cell(n + 2, 'question_en'), n + 2] as const),
    )
    const prime = byQuestion.get('Which are prime?')!
    expect([cell(prime, 'type'), cell(prime, 'correct')]).toEqual(['multiple', 'A;C'])
    const pi = byQuestion.get('Give pi to two decimals.')!
    expect([cell(pi, 'type'), cell(pi, 'answer_value'), cell(pi, 'answer_tolerance'), cell(pi, 'decimals')]).toEqual([
      'numeric',
      '3.14',
      '0.01',
      '2',
    ])
    const range = byQuestion.get('A whole number from 1 to 5.')!
    expect([cell(range, 'answer_min'), cell(range, 'answer_max'), cell(range, 'passage_en')]).toEqual(['1', '5', koshi])
    // A passage's questions are written together, in the passage's order.
    const rowsOfPassage = [...byQuestion].filter(([, row]) => cell(row, 'passage_en') === koshi).map(([, row]) => row)
    expect(rowsOfPassage.map((row) => cell(row, 'question_en'))).toEqual([
      'Which river is the largest?',
      'When does the Koshi flood?',
      'A whole number from 1 to 5.',
    ])
    expect(rowsOfPassage.at(-1)! - rowsOfPassage[0]!).toBe(2)

    // Read back: the same questions (every one a duplicate) with the same types, keys and passage.
    const back = await upload(headers, exported.rawPayload, 'bank.xlsx')
    expect(back.summary).toEqual({ ok: 0, fixed: 0, rejected: 0, duplicate: 6 })
    const strip = (row: ImportDryRun['rows'][number]) => ({
      text: row.question.text.en,
      type: row.question.type,
      answer: row.question.answer,
      decimals: row.question.decimals,
      right: row.question.options.map((option) => option.is_correct),
      passage: row.passage,
    })
    const sorted = (rows: ImportDryRun['rows']) => rows.map(strip).sort((a, b) => a.text.localeCompare(b.text))
    expect(sorted(back.rows)).toEqual(sorted(first.rows))

    // A passage in both languages: each in its column, read back the same passage (not one Nepali cell).
    const passages = await get(headers, '/api/admin/bank/passages/')
    const koshiNe = 'कोशी नेपालको सबैभन्दा ठूलो नदी हो।'
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/bank/passages/${passages.results[0].id}/`,
      headers,
      payload: { text: { en: koshi, ne: koshiNe }, image: null },
    })
    expect(edited.statusCode).toBe(200)
    const bilingual = await t.app.inject({ method: 'GET', url: '/api/admin/bank/export.xlsx', headers })
    const readBack = await upload(headers, bilingual.rawPayload, 'bank.xlsx')
    expect(readBack.summary.duplicate).toBe(6)
    expect(readBack.rows.filter((row) => row.passage).map((row) => row.passage)).toEqual(
      Array(3).fill({ text: { en: koshi, ne: koshiNe } }),
    )
  })
})
