import { importColumns, type ImportDryRun } from '@quiz/contracts'
import { describe, expect, it } from 'vitest'
import { postImport } from '../../../test/auth-requests'
import { dialects } from '../../../test/dialects'
import { bearerFor, createUser } from '../../../test/factories'
import { useTestApp } from '../../../test/test-app'
import { docxFile, xlsxFile, type Cell } from '../../../test/fixtures/import-files.fixtures'

/*
 * API.md "Fidelity": under `legacy_font: auto` a file of every format holding symbols, code and TeX comes back as
 * typed, `ok`, with nothing converted; a file typed in Preeti comes back in Unicode, each conversion listed.
 */

const DEVANAGARI = /[\u0900-\u097F]/
const header = [...importColumns] as string[]
const sheetRow = (cells: Partial<Record<(typeof importColumns)[number], Cell>>): Cell[] =>
  header.map((column) => cells[column as keyof typeof cells] ?? '')
const csvCell = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)
const csv = (rows: Array<Partial<Record<(typeof importColumns)[number], string>>>) =>
  [header, ...rows.map((row) => sheetRow(row) as string[])].map((cells) => cells.map(csvCell).join(',')).join('\n')

const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
/** A Moodle XML file of single-answer multichoice questions, plain text, the first answer right. */
const moodle = (category: string, questions: Array<{ text: string; answers: string[] }>) =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<quiz>',
    `<question type="category"><category><text>${xmlText(category)}</text></category></question>`,
    ...questions.map(({ text, answers }, index) =>
      [
        '<question type="multichoice">',
        `<name><text>Q${index + 1}</text></name>`,
        `<questiontext format="plain_text"><text>${xmlText(text)}</text></questiontext>`,
        '<single>true</single>',
        ...answers.map(
          (answer, at) =>
            `<answer fraction="${at === 0 ? 100 : 0}" format="plain_text"><text>${xmlText(answer)}</text></answer>`,
        ),
        '</question>',
      ].join('\n'),
    ),
    '</quiz>',
  ].join('\n')

describe.each(dialects)('legacy fonts under auto on %s', (dialect) => {
  const t = useTestApp(dialect)
  const asAdmin = async () => bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
  const upload = async (fields: Record<string, string>, file?: { data: Buffer; filename: string }) => {
    const response = await postImport(t.app, await asAdmin(), fields, file)
    expect(response.statusCode).toBe(201)
    return response.json() as ImportDryRun
  }

  /**
   * Nothing converted, no Devanagari anywhere in the questions; every row `ok`, but those holding Moodle's maths
   * delimiters (`mathsRows`, 0-based), which are `fixed` for that rewrite alone (API.md "Moodle's formats").
   */
  const untouched = (run: ImportDryRun, rows: number, mathsRows: number[] = []) => {
    expect(run.rows.map((row) => [row.row, row.status, [...new Set(row.messages.map((m) => m.code))]])).toEqual(
      run.rows.map((row, index) =>
        mathsRows.includes(index) ? [row.row, 'fixed', ['maths_rewritten']] : [row.row, 'ok', []],
      ),
    )
    expect(run.rows).toHaveLength(rows)
    for (const row of run.rows) {
      expect(row.converted).toEqual([])
      expect(JSON.stringify(row.question)).not.toMatch(DEVANAGARI)
    }
  }

  it('leaves GIFT with symbols, code, TeX and a topic like sql-dql as typed', async () => {
    const gift = [
      '$CATEGORY: $course$/top/sql-dql',
      '',
      '::Q1:: Which operator is the logical AND in C? {',
      '  =&&',
      '  ~||',
      '  ~!',
      '  ~\\#',
      '}',
      '',
      '::Q2:: Which characters does GIFT escape? {=\\~ \\= \\# \\{ \\} \\: ~none ~only \\\\}',
      '',
      '::Q3:: Solve \\(x^2 \\= 4\\) for a positive x {=\\(2\\) ~\\(-2\\) ~\\(4\\)}',
      '',
      '::Q4:: x \\= 5; y \\= x++; {=5 ~6 ~x}',
    ].join('\n')
    const run = await upload({ text: gift, format: 'gift' })
    untouched(run, 4, [2])
    expect(run.rows[2]!.question.text.en).toBe('Solve $x^2 = 4$ for a positive x')
    expect(run.rows[0]!.question).toMatchObject({
      topic: 'sql-dql',
      options: [{ text: { en: '&&' } }, { text: { en: '||' } }, { text: { en: '!' } }, { text: { en: '#' } }],
    })
    expect(run.rows[1]!.question.options[0]!.text.en).toBe('~ = # { } :')
    expect(run.rows[3]!.question.text.en).toBe('x = 5; y = x++;')
  })

  it('leaves Aiken with code and symbols as typed', async () => {
    const aiken = [
      'What does a && b || !c evaluate to when a and b are true?',
      'A. true',
      'B) false',
      'C. !c',
      'D. a && b',
      'ANSWER: A',
      '',
      '#include <stdio.h> is a',
      'A. preprocessor directive',
      'B. {',
      'C. :',
      'D. \\',
      'ANSWER: A',
    ].join('\n')
    const run = await upload({ text: aiken, format: 'aiken' })
    untouched(run, 2)
    expect(run.rows[1]!.question.options.map((option) => option.text.en)).toEqual([
      'preprocessor directive',
      '{',
      ':',
      '\\',
    ])
  })

  it('leaves Moodle XML with TeX, code and a category like sql-dql as typed', async () => {
    const xml = moodle('$course$/top/sql-dql', [
      { text: 'Solve \\(x^2 = 4\\) for a positive x.', answers: ['\\(2\\)', '\\(-2\\)', '\\(4\\)'] },
      { text: 'SELECT * FROM t WHERE a <> b; which language?', answers: ['DQL', 'DDL', 'DCL'] },
      { text: 'if (a && b) { c(); }', answers: ['&&', '||', '!'] },
    ])
    const run = await upload({ format: 'moodle_xml' }, { data: Buffer.from(xml), filename: 'quiz.xml' })
    untouched(run, 3, [0])
    expect(run.rows[0]!.question.options.map((option) => option.text.en)).toEqual(['$2$', '$-2$', '$4$'])
    expect(run.rows.map((row) => row.question.topic)).toEqual(['sql-dql', 'sql-dql', 'sql-dql'])
    expect(run.rows[2]!.question.options.map((option) => option.text.en)).toEqual(['&&', '||', '!'])
  })

  it('leaves pasted text and Word with symbols and code as typed', async () => {
    const pasted = [
      '1. Which symbol starts a comment in Python?',
      'A. #',
      'B. //',
      'C. /* */',
      'D. --',
      'Answer: A',
      'Topic: sql-dql',
    ].join('\n')
    const textRun = await upload({ text: pasted, format: 'text' })
    untouched(textRun, 1)
    expect(textRun.rows[0]!.question.topic).toBe('sql-dql')

    const docx = docxFile([
      [{ text: '1. Which operator means not equal in C?' }],
      [{ text: 'A. !=' }],
      [{ text: 'B. ==' }],
      [{ text: 'C. &&' }],
      [{ text: 'Answer: A' }],
      [{ text: 'Topic: sql-dql' }],
    ])
    const docxRun = await upload({}, { data: docx, filename: 'questions.docx' })
    untouched(docxRun, 1)
  })

  it('leaves a spreadsheet whose Nepali cells hold TeX and code as typed, and never reads its topic and tags', async () => {
    const rows = [
      {
        question_en: 'Solve for x',
        question_ne: '$x^2 = 4$',
        option_a_ne: '$2$',
        option_b_ne: '$-2$',
        option_c_ne: '$4$',
        correct: 'A',
        topic: 'sql-dql',
        tags: 'c++;sql-dql',
        source: 'ddl',
      },
      {
        question_en: 'Which is the AND operator?',
        question_ne: 'a && b',
        option_a_ne: '&&',
        option_b_ne: '||',
        option_c_ne: '!',
        correct: 'A',
        topic: 'sql-dql',
      },
    ]
    const csvRun = await upload({}, { data: Buffer.from(csv(rows)), filename: 'questions.csv' })
    untouched(csvRun, 2)
    expect(csvRun.rows[0]!.question).toMatchObject({ topic: 'sql-dql', tags: ['c++', 'sql-dql'], source: 'ddl' })

    const xlsx = await xlsxFile([header, ...rows.map((row) => sheetRow(row))])
    untouched(await upload({}, { data: xlsx, filename: 'questions.xlsx' }), 2)
  })

  describe('a Preeti file comes back in Unicode', () => {
    const capital = { ne: 'नेपालको राजधानी कुन हो ?', options: ['काठमाडौं', 'पोखरा', 'गलत'] }
    const poet = { ne: 'भानुभक्त आचार्यको जन्म कहिले भएको थियो ?', options: ['१८७१', '१८७२'] }
    const sangh = { ne: 'सङ्घीय संसद्मा कति सदन छन् ?', options: ['२', '३'] }

    const converted = (run: ImportDryRun) => {
      expect(run.rows.map((row) => row.status)).toEqual(run.rows.map(() => 'fixed'))
      for (const row of run.rows) {
        expect(row.messages.every((message) => message.code === 'font_converted')).toBe(true)
        expect(row.converted.length).toBeGreaterThan(0)
      }
      return run.rows.map((row) => ({
        ne: row.question.text.ne,
        options: row.question.options.map((option) => option.text.ne),
      }))
    }

    it('in GIFT, Aiken and pasted text', async () => {
      const gift = [
        "::Q1:: g]kfnsf] /fhwfgL s'g xf] < {=sf7df8f\\}+ ~kf]v/f ~unt}",
        '',
        // An escaped \\{ (the reph) in a question's text makes today's GIFT reader join it to the next question.
        "::Q2:: efg'eQmsf] hGd slxn] ePsf] lyof] < {=!*&! ~!*&@}",
        '',
        '::Q3:: ;ª\\3Lo ;+;b\\df slt ;bg 5g\\ < {=@ ~\\#}',
      ].join('\n')
      expect(converted(await upload({ text: gift, format: 'gift' }))).toEqual([
        capital,
        { ...poet, ne: 'भानुभक्तको जन्म कहिले भएको थियो ?' },
        sangh,
      ])

      const aiken = ["g]kfnsf] /fhwfgL s'g xf] <", 'A. sf7df8f}+', 'B. kf]v/f', 'C. unt', 'ANSWER: A'].join('\n')
      expect(converted(await upload({ text: aiken, format: 'aiken' }))).toEqual([capital])

      const pasted = ["1. efg'eQm cfrfo{sf] hGd slxn] ePsf] lyof] <", 'A. !*&!', 'B. !*&@', 'Answer: A'].join('\n')
      expect(converted(await upload({ text: pasted, format: 'text' }))).toEqual([poet])
    })

    it('with a message naming what the converter is unsure of', async () => {
      const rows = [
        { question_ne: "g]kfnsf] /fhwfgL s'g xf] < Ç", option_a_ne: 'sf7df8f}+', option_b_ne: 'kf]v/f', correct: 'A' },
        { question_ne: 'slt', option_a_ne: 'ltg', option_b_ne: 'dfq', correct: 'A' },
      ]
      const run = await upload({}, { data: Buffer.from(csv(rows)), filename: 'questions.csv' })
      expect(run.rows.map((row) => [row.status, row.question.text.ne])).toEqual([
        ['fixed', 'नेपालको राजधानी कुन हो ? Ç'],
        ['fixed', 'कति'],
      ])
      expect(run.rows[0]!.messages[0]).toEqual({
        field: 'text.ne',
        code: 'font_converted',
        message:
          'Converted from Preeti to Unicode; check the conversion. Unsure: the characters "Ç" are no Preeti key we know.',
      })
      expect(run.rows[0]!.messages[1]).toEqual({
        field: 'options.0.text.ne',
        code: 'font_converted',
        message: 'Converted from Preeti to Unicode; check the conversion.',
      })
      expect(run.rows[1]!.messages.map((message) => message.message)).toEqual([
        'Converted from Preeti to Unicode; check the conversion. Unsure: the text reads as Preeti only on weak hints.',
        'Converted from Preeti to Unicode; check the conversion. Unsure: the text reads as Preeti only on weak hints.',
        'Converted from Preeti to Unicode; check the conversion. Unsure: the text reads as Preeti only on weak hints.',
      ])
    })

    it('in Moodle XML and CSV, topics left as typed', async () => {
      const xml = moodle('$course$/top/GK', [
        { text: "g]kfnsf] /fhwfgL s'g xf] <", answers: ['sf7df8f}+', 'kf]v/f', 'unt'] },
        { text: ';ª\\3Lo ;+;b\\df slt ;bg 5g\\ <', answers: ['@', '#'] },
      ])
      const run = await upload({}, { data: Buffer.from(xml), filename: 'quiz.xml' })
      expect(converted(run)).toEqual([capital, sangh])
      expect(run.rows[0]!.question.topic).toBe('GK')

      const rows = [
        {
          question_ne: "efg'eQm cfrfo{sf] hGd slxn] ePsf] lyof] <",
          option_a_ne: '!*&!',
          option_b_ne: '!*&@',
          correct: 'A',
          topic: 'slt',
        },
        // A number in ASCII digits was typed in another font: it stays a number.
        { question_ne: 'jif{ 2081 sf] ah]6 slt xf] <', option_a_ne: '!@ va{', option_b_ne: '!$ va{', correct: 'A' },
      ]
      const csvRun = await upload({}, { data: Buffer.from(csv(rows)), filename: 'questions.csv' })
      expect(converted(csvRun)).toEqual([poet, { ne: 'वर्ष 2081 को बजेट कति हो ?', options: ['१२ खर्ब', '१४ खर्ब'] }])
      expect(csvRun.rows[0]!.question.topic).toBe('slt')
      expect(csvRun.rows[0]!.converted[0]).toEqual({
        field: 'text.ne',
        original: "efg'eQm cfrfo{sf] hGd slxn] ePsf] lyof] <",
        unicode: poet.ne,
      })
    })
  })
})
