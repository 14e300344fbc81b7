import { ImportFieldsSchema } from '@quiz/contracts'
import { describe, expect, it } from 'vitest'
import { xlsxFile } from '../../../test/fixtures/import-files.fixtures'
import { buildRow } from '../rows'
import { headingColumn, NoHeader } from './columns'
import { readCsv } from './csv'
import { readXlsx } from './xlsx'

// API.md "Typists' habits": an institute's own spreadsheet headings, and the upload's `columns` for the rest.

const build = (drafts: Awaited<ReturnType<typeof readXlsx>>) =>
  Promise.all(
    drafts.map((draft) =>
      buildRow(draft, { format: 'xlsx', legacyFont: 'auto', defaults: { tags: [] }, pictureKey: 'test' }),
    ),
  )

describe('spreadsheet headings as institutes write them', () => {
  it.each([
    ['प्रश्न', 'question'],
    ['Question', 'question'],
    ['Question (Nepali)', 'question_ne'],
    ['English Question', 'question_en'],
    ['प्रश्न (अंग्रेजी)', 'question_en'],
    ['क', 'option_a'],
    ['(घ)', 'option_d'],
    ['Option A', 'option_a'],
    ['option b (english)', 'option_b_en'],
    ['विकल्प ग', 'option_c'],
    ['Option 4', 'option_d'],
    ['विकल्प १०', 'option_j'],
    ['सही उत्तर', 'correct'],
    ['उत्तर:', 'correct'],
    ['Answer', 'correct'],
    ['Correct Answer', 'correct'],
    ['विषय', 'topic'],
    ['Subject', 'topic'],
    ['व्याख्या', 'hint'],
    ['Hint (Nepali)', 'hint_ne'],
    ['question_en', 'question_en'],
    ['अनुच्छेद', 'passage'],
    ['Passage (English)', 'passage_en'],
    ['अनुच्छेद नेपाली', 'passage_ne'],
    ['passage_ne', 'passage_ne'],
    ['क्र.सं.', 'ignore'],
    ['S.N.', 'ignore'],
    ['S. No.', 'ignore'],
    ['Remarks', null],
    ['1', null],
  ])('reads %s as %s', (heading, column) => {
    expect(headingColumn(heading)).toBe(column)
  })

  it('imports a Nepali-headed workbook, serial number ignored, the script deciding the language', async () => {
    const file = await xlsxFile([
      ['क्र.सं.', 'प्रश्न', 'क', 'ख', 'ग', 'घ', 'सही उत्तर', 'विषय'],
      ['१', 'नेपालको राजधानी कुन हो?', 'काठमाडौं', 'पोखरा', 'विराटनगर', 'जनकपुर', 'क', 'भूगोल'],
      ['२', 'Largest planet?', 'Jupiter', 'Mars', 'Venus', 'Earth', 'क', 'Science'],
    ])
    const rows = await build(await readXlsx(file))
    expect(rows.map((row) => row.status)).toEqual(['ok', 'ok'])
    expect(rows[0]!.question.text).toEqual({ en: '', ne: 'नेपालको राजधानी कुन हो?' })
    expect(rows[0]!.question.topic).toBe('भूगोल')
    expect(rows[1]!.question.options[0]).toMatchObject({ text: { en: 'Jupiter', ne: '' }, is_correct: true })
  })

  it('imports plain English headings (Question, Option A…, Answer) from CSV', async () => {
    const csv = 'S.N.,Question,Option A,Option B,Option C,Answer\n1,Two plus two?,3,4,5,B\n'
    const rows = await build(readCsv(new TextEncoder().encode(csv)))
    expect(rows[0]!.status).toBe('ok')
    expect(rows[0]!.question.options[1]!.is_correct).toBe(true)
  })

  it('refuses headings it does not understand, listing them', async () => {
    const file = await xlsxFile([
      ['Sawal', 'Pahilo', 'Dosro', 'Uttar'],
      ['Two plus two?', '4', '5', 'A'],
    ])
    const refusal = await readXlsx(file).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(NoHeader)
    expect((refusal as NoHeader).headings).toEqual(['Sawal', 'Pahilo', 'Dosro', 'Uttar'])
    expect((refusal as NoHeader).message).toContain('Sawal, Pahilo, Dosro, Uttar')
  })

  it('refuses a sheet without an answer column, listing its headings', async () => {
    const file = await xlsxFile([
      ['प्रश्न', 'क', 'ख', 'Remarks'],
      ['दुई जोड दुई?', 'चार', 'पाँच', ''],
    ])
    await expect(readXlsx(file)).rejects.toThrow(
      /\(प्रश्न, क, ख, Remarks\) lack a question, an option or an answer column/,
    )
  })

  it('maps headings with columns, and refuses a mapping naming a heading the file lacks', async () => {
    const file = await xlsxFile([
      ['Sawal', 'Pahilo', 'Dosro', 'Uttar'],
      ['Two plus two?', '4', '5', 'A'],
    ])
    const mapping = { Sawal: 'question_en', Pahilo: 'option_a_en', Dosro: 'option_b_en', Uttar: 'correct' } as const
    const rows = await build(await readXlsx(file, mapping))
    expect(rows[0]!.status).toBe('ok')
    expect(rows[0]!.question.options.map((option) => option.text.en)).toEqual(['4', '5'])
    await expect(readXlsx(file, { ...mapping, Tesro: 'option_c_en' })).rejects.toThrow(/"Tesro" is not a heading/)
  })
})

describe('the columns field', () => {
  const columnsOf = (columns: string) => ImportFieldsSchema.safeParse({ columns })

  it('takes a JSON object from heading to template column', () => {
    expect(columnsOf('{"प्रश्न": "question_ne", "क": "option_a_ne"}').data?.columns).toEqual({
      प्रश्न: 'question_ne',
      क: 'option_a_ne',
    })
  })

  it.each([['not json'], ['[1]'], ['{"प्रश्न": "question"}'], ['{"a": "correct", "b": "correct"}']])(
    'refuses %s at columns',
    (columns) => {
      const result = columnsOf(columns)
      expect(result.success).toBe(false)
      expect(result.error!.issues.map((issue) => issue.path.join('.'))).toEqual(['columns'])
    },
  )
})
