import type { ImportDryRun } from '@quiz/contracts'
import { beforeAll, describe, expect, it } from 'vitest'
import { postImport } from '../../test/auth-requests'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { xlsxFile, warmImportWorker } from '../../test/fixtures/import-files.fixtures'

// Issue 40 through the route: Moodle's own formats as Moodle reads them, media never dropped with the row `ok`,
// institutes' spreadsheet headings and the `columns` mapping, and an 11th option refused.

const giftFile = `// A GIFT file with the constructs Moodle's readers accept
$CATEGORY: $course$/top/Science

::arrows:: Which arrow reads "implies"? {=A -> B ~A <- B ~A <-> B}

::credit:: Largest planet? {=Jupiter ~%50%Saturn ~Mars ~Venus}

::hundred:: Capital of Nepal? {~%100%Kathmandu#It lies in the valley. ~Pokhara ~Biratnagar}

::maths:: Solve \\(x^2 = 9\\) for positive x. {=\\(3\\) ~\\(-3\\) ~\\(9\\)}

::money:: A pen costs $5; two cost? {=$10 ~$5 ~$25}

::audio:: Listen to <a href\\="https://example.org/word.mp3">the word</a>. Which is it? {=One ~Two}

::picture:: [html]<p>Which flag?</p><img src\\="https://example.org/np.png"> {=Nepal ~Bhutan}

::tf:: Kathmandu is in Nepal. {T}

Kathmandu is in {1:MULTICHOICE:=Nepal~India} and Delhi in {1:SHORTANSWER:=India}.
`

const aikenFile = `Capital of Nepal?
A)Kathmandu
B)Pokhara
C)Janakpur

ANSWER: A

Two plus two?
A.3
B.4
ANSWER: B
`

const xmlFile = `<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="multichoice">
    <questiontext format="plain_text"><text>If a &lt; b and b &gt; c, which is largest?</text></questiontext>
    <single>1</single>
    <answer fraction="100" format="plain_text"><text>b</text></answer>
    <answer fraction="50" format="plain_text"><text>a</text></answer>
    <answer fraction="0" format="plain_text"><text>c</text></answer>
  </question>
  <question type="multichoice">
    <questiontext format="html"><text><![CDATA[<!--[if gte mso 9]><xml><w:View>Normal</w:View><w:Zoom>0</w:Zoom></xml><![endif]--><p><span lang="en" class="multilang">What is \\(2+2\\)?</span><span lang="ne" class="multilang">\\(2+2\\) कति हुन्छ?</span></p>]]></text></questiontext>
    <single>true</single>
    <answer fraction="100"><text>4</text></answer>
    <answer fraction="0"><text>5</text></answer>
  </question>
  <question type="multichoice">
    <questiontext format="html"><text>Which flag?</text></questiontext>
    <image>flags/nepal.png</image>
    <single>true</single>
    <answer fraction="100"><text>Nepal</text></answer>
    <answer fraction="0"><text>Bhutan</text></answer>
  </question>
  <question type="multichoice">
    <questiontext format="html"><text>Primes?</text></questiontext>
    <single>0</single>
    <answer fraction="50"><text>2</text></answer>
    <answer fraction="50"><text>3</text></answer>
  </question>
  <question type="multianswer">
    <questiontext format="html"><text>{1:MC:=a~b}</text></questiontext>
  </question>
</quiz>
`

beforeAll(warmImportWorker, 180_000)

describe.each(dialects)('Moodle formats and typists’ files on %s', (dialect) => {
  const t = useTestApp(dialect)
  const asAdmin = async () => bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
  const upload = async (fields: Record<string, string>, file?: { data: Buffer; filename: string }) => {
    const headers = await asAdmin()
    const response = await postImport(t.app, headers, fields, file)
    return { status: response.statusCode, body: response.json(), headers }
  }
  const summary = (rows: ImportDryRun['rows']) =>
    rows.map((row) => [row.row, row.status, row.messages.map((message) => message.code).join(',')])

  it('reads a GIFT file as Moodle reads it, and commits what it may', async () => {
    const { status, body, headers } = await upload({}, { data: Buffer.from(giftFile), filename: 'science.gift' })
    expect(status).toBe(201)
    const run = body as ImportDryRun
    expect(run.format).toBe('gift')
    expect(summary(run.rows)).toEqual([
      [4, 'ok', ''],
      [6, 'fixed', 'partial_credit_dropped'],
      [8, 'ok', ''],
      [10, 'fixed', 'maths_rewritten,maths_rewritten,maths_rewritten,maths_rewritten'],
      [12, 'ok', ''],
      [14, 'rejected', 'media'],
      [16, 'rejected', 'image'],
      [18, 'rejected', 'unsupported_type'],
      [20, 'rejected', 'unsupported_type'],
    ])
    expect(run.rows[0]!.question.options[0]!.text.en).toBe('A -> B')
    expect(run.rows[2]!.question.hint).toEqual({ en: 'It lies in the valley.', ne: '' })
    expect(run.rows[3]!.question.text.en).toBe('Solve $x^2 = 9$ for positive x.')
    expect(run.rows[4]!.question.options[0]!.text.en).toBe('\\$10')
    expect(run.rows[8]!.messages[0]!.message).toMatch(/Cloze/)
    expect(run.rows.every((row) => row.question.topic === 'Science')).toBe(true)
    const commit = await t.app.inject({
      method: 'POST',
      url: `/api/admin/imports/${run.import_id}/commit/`,
      headers,
      payload: {},
    })
    expect(commit.json()).toMatchObject({ imported: 5, duplicates: 0 })
  })

  it('reads an Aiken file with A)Text options and a blank line before ANSWER', async () => {
    const { body } = await upload({}, { data: Buffer.from(aikenFile), filename: 'quiz.txt' })
    expect(body.format).toBe('aiken')
    expect(summary(body.rows)).toEqual([
      [1, 'ok', ''],
      [8, 'ok', ''],
    ])
    expect(body.rows[0].question.options.map((option: { text: { en: string } }) => option.text.en)).toEqual([
      'Kathmandu',
      'Pokhara',
      'Janakpur',
    ])
  })

  it('reads a Moodle XML file by each text’s format, with multilang, maths, 1.9 images and Cloze', async () => {
    const { body } = await upload({}, { data: Buffer.from(xmlFile), filename: 'export.xml' })
    expect(summary(body.rows)).toEqual([
      [3, 'fixed', 'partial_credit_dropped'],
      [10, 'fixed', 'maths_rewritten'],
      [16, 'rejected', 'image'],
      // Multiple answer is a multiple question (API.md "Question types"), its split credit the section's marking.
      [23, 'fixed', 'partial_marking'],
      [29, 'rejected', 'unsupported_type'],
    ])
    expect(body.rows[0].question.text.en).toBe('If a < b and b > c, which is largest?')
    expect(body.rows[1].question.text).toEqual({ en: 'What is $2+2$?', ne: '$2+2$ कति हुन्छ?' })
    expect(body.rows[4].messages[0].message).toMatch(/embedded answers \(Cloze\)/)
  })

  it('reads Nepali headings, lists headings it cannot read, and maps them with columns', async () => {
    const nepali = await xlsxFile([
      ['क्र.सं.', 'प्रश्न', 'क', 'ख', 'ग', 'घ', 'सही उत्तर', 'विषय'],
      ['१', 'नेपालको राजधानी कुन हो?', 'काठमाडौं', 'पोखरा', 'विराटनगर', 'जनकपुर', 'क', 'भूगोल'],
    ])
    const read = await upload({}, { data: nepali, filename: 'questions.xlsx' })
    expect(summary(read.body.rows)).toEqual([[2, 'ok', '']])

    const own = await xlsxFile([
      ['Sawal', 'Pahilo', 'Dosro', 'Uttar'],
      ['Two plus two?', '4', '5', 'A'],
    ])
    const refused = await upload({}, { data: own, filename: 'own.xlsx' })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: 'import_unreadable', headings: ['Sawal', 'Pahilo', 'Dosro', 'Uttar'] })
    const columns = { Sawal: 'question_en', Pahilo: 'option_a_en', Dosro: 'option_b_en', Uttar: 'correct' }
    const mapped = await upload({ columns: JSON.stringify(columns) }, { data: own, filename: 'own.xlsx' })
    expect(mapped.status).toBe(201)
    expect(summary(mapped.body.rows)).toEqual([[2, 'ok', '']])
    const badColumn = await upload({ columns: '{"Sawal": "question"}' }, { data: own, filename: 'own.xlsx' })
    expect(badColumn.status).toBe(400)
    expect(Object.keys(badColumn.body.errors)).toEqual(['columns'])
    const badHeading = await upload(
      { columns: JSON.stringify({ ...columns, Tesro: 'option_c_en' }) },
      { data: own, filename: 'own.xlsx' },
    )
    expect(badHeading.status).toBe(400)
    expect(badHeading.body.errors.columns[0]).toMatch(/"Tesro" is not a heading/)
  })

  it('refuses pasted text with 11 options, naming the count', async () => {
    const text = ['1. Which?', ...'ABCDEFGHIJK'.split('').map((letter) => `${letter}) option ${letter}`), 'Answer: A']
    const { body } = await upload({ text: text.join('\n') })
    expect(body.rows[0].status).toBe('rejected')
    expect(body.rows[0].messages).toEqual([
      expect.objectContaining({ code: 'option_count', message: expect.stringMatching(/11 options/) }),
    ])
  })
})
