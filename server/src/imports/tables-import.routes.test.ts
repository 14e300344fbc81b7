import type { ImportDryRun } from '@quiz/contracts'
import { beforeAll, describe, expect, it } from 'vitest'
import { multipart } from '../../test/auth-requests'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { docxFile, warmImportWorker } from '../../test/fixtures/import-files.fixtures'

// API.md "Tables in questions": a table in a Word question (Preeti cells converted), an HTML <table> in Moodle XML
// and GIFT's [html] come in as pipe rows; merged cells, nested tables and tables over the limits reject the row,
// naming why; the bank's export writes the pipe rows, and importing it again finds every question a duplicate.

beforeAll(warmImportWorker, 180_000)

const xmlQuestion = (html: string) => `<question type="multichoice">
  <name><text>q</text></name>
  <questiontext format="html"><text><![CDATA[${html}]]></text></questiontext>
  <single>true</single>
  <answer fraction="100" format="html"><text>2081</text></answer>
  <answer fraction="0" format="html"><text>2080</text></answer>
</question>`
const moodle = (...questions: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n${questions.join('\n')}\n</quiz>\n`

describe.each(dialects)('tables imported on %s', (dialect) => {
  const t = useTestApp(dialect)
  const asAdmin = async () => bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
  const upload = async (headers: Record<string, string>, fields: Record<string, string>, file?: Buffer) => {
    const files = file
      ? [{ field: 'file', filename: 'q.docx', contentType: 'application/octet-stream', data: file }]
      : []
    const form = multipart(fields, files)
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/imports/',
      headers: { ...headers, ...form.headers },
      payload: form.payload,
    })
    expect(response.statusCode, response.body).toBe(201)
    return response.json() as ImportDryRun & { import_id: number }
  }

  it('reads a Word table as pipe rows, its Preeti cells converted, the alignment kept, into the bank', async () => {
    const headers = await asAdmin()
    const file = docxFile([
      [{ text: '1. Which district had more schools?' }],
      {
        table: [
          ['District', [{ text: ';ª\\Vof', font: 'Preeti' }]],
          [[{ text: 'sf7df8f}+ æk|mfG;Æ', font: 'Preeti' }], '12 | 3'],
        ],
        align: 'right',
      },
      [{ text: 'A. Kathmandu' }],
      [{ text: 'B. Lalitpur' }],
      [{ text: 'Answer: A' }],
    ])
    const run = await upload(headers, {}, file)
    expect(run.rows.map((row) => row.status)).toEqual(['fixed'])
    // Devanagari in it makes the text Nepali, as any Word text's script decides.
    expect(run.rows[0]!.question.text).toEqual({
      en: '',
      ne: 'Which district had more schools?\n| District | सङ्ख्या |\n| ---: | ---: |\n| काठमाडौं “फ्रान्स” | 12 \\| 3 |',
    })
    expect(run.rows[0]!.converted).toEqual([
      expect.objectContaining({
        original: expect.stringContaining('| ;ª\\Vof |'),
        unicode: run.rows[0]!.question.text.ne,
      }),
    ])
    const committed = await t.app.inject({
      method: 'POST',
      url: `/api/admin/imports/${run.import_id}/commit/`,
      headers,
      payload: {},
    })
    expect(committed.json()).toMatchObject({ imported: 1 })
    const [id] = committed.json().question_ids as number[]
    const stored = await t.app.inject({ method: 'GET', url: `/api/admin/bank/questions/${id}/`, headers })
    expect(stored.json().text.html.ne).toContain('<th scope="col" class="align-right">सङ्ख्या</th>')
    expect(stored.json().text.html.ne).toContain('<td class="align-right">12 | 3</td>')
  })

  it('refuses a Word table with merged cells or a table inside it, naming why', async () => {
    const question = (n: number, table: Parameters<typeof docxFile>[0][number]) => [
      [{ text: `${n}. Read the table.` }],
      table,
      [{ text: 'A. yes' }],
      [{ text: 'B. no' }],
      [{ text: 'Answer: A' }],
    ]
    const file = docxFile([
      ...question(1, {
        table: [
          ['a', 'b'],
          ['1', '2'],
        ],
        merged: true,
      }),
      ...question(2, {
        table: [
          ['a', 'b'],
          ['1', '2'],
        ],
        nested: true,
      }),
      ...question(3, { table: Array.from({ length: 32 }, () => ['r', 's']) }),
    ] as Parameters<typeof docxFile>[0])
    const run = await upload(await asAdmin(), {}, file)
    expect(run.rows.map((row) => row.status)).toEqual(['rejected', 'rejected', 'rejected'])
    const messages = run.rows.map((row) => row.messages.filter((m) => m.code === 'table').map((m) => m.message))
    expect(messages[0]).toEqual([expect.stringContaining('merged cells')])
    expect(messages[1]).toEqual([expect.stringContaining('holds another table')])
    expect(messages[2]).toEqual(['Table 1 has 31 rows; a table may have at most 30.'])
  })

  it('keeps the caption of a Moodle table as a line above its rows (issue 73: it was dropped)', async () => {
    const headers = await asAdmin()
    const xml = await upload(headers, {
      text: moodle(
        xmlQuestion(
          '<table><caption>Rainfall in <b>mm</b> | 2080</caption><tr><th>Month</th><th>Rain</th></tr>' +
            '<tr><td>Saun</td><td>410</td></tr></table><p>Which month?</p>',
        ),
      ),
    })
    expect(xml.rows[0]!.question.text.en).toBe(
      'Rainfall in mm | 2080\n| Month | Rain |\n| --- | --- |\n| Saun | 410 |\nWhich month?',
    )
  })

  it('reads HTML tables of Moodle XML and GIFT, refusing merged and nested ones, and exports them as written', async () => {
    const headers = await asAdmin()
    const table =
      '<p>Exports:</p><table border="1"><thead><tr><th>Year</th><th>Tonnes</th></tr></thead>' +
      '<tbody><tr><td>2080</td><td style="text-align: right;">1 &amp; 2</td></tr><tr><td>2081</td><td>\\(x^2\\)</td></tr></tbody></table><p>Which grew?</p>'
    const xml = await upload(headers, {
      text: moodle(
        xmlQuestion(table),
        xmlQuestion('<table><tr><td colspan="2">a</td></tr><tr><td>1</td><td>2</td></tr></table>Merged?'),
        xmlQuestion('<table><tr><td><table><tr><td>x</td></tr></table></td></tr></table>Nested?'),
      ),
    })
    expect(xml.format).toBe('moodle_xml')
    expect(xml.rows.map((row) => row.status)).toEqual(['fixed', 'rejected', 'rejected'])
    expect(xml.rows[0]!.question.text.en).toBe(
      'Exports:\n| Year | Tonnes |\n| --- | ---: |\n| 2080 | 1 & 2 |\n| 2081 | $x^2$ |\nWhich grew?',
    )
    expect(xml.rows[1]!.messages).toEqual([
      expect.objectContaining({ code: 'table', message: expect.stringMatching(/merged cells/) }),
    ])
    expect(xml.rows[2]!.messages).toEqual([
      expect.objectContaining({ code: 'table', message: expect.stringMatching(/table inside a table/) }),
    ])

    const gift = await upload(headers, {
      text: '[html]Bus times<table><tr><th>Bus</th><th>Leaves</th></tr><tr><td>A</td><td>7:00</td></tr></table> Which leaves first? {=A ~B}',
      format: 'gift',
    })
    expect(gift.rows.map((row) => row.status)).toEqual(['ok'])
    expect(gift.rows[0]!.question.text.en).toBe(
      'Bus times\n| Bus | Leaves |\n| --- | --- |\n| A | 7:00 |\nWhich leaves first?',
    )

    for (const run of [xml, gift])
      await t.app.inject({ method: 'POST', url: `/api/admin/imports/${run.import_id}/commit/`, headers, payload: {} })
    const exported = await t.app.inject({ method: 'GET', url: '/api/admin/bank/export.xlsx', headers })
    expect(exported.statusCode).toBe(200)
    const form = multipart({}, [
      { field: 'file', filename: 'bank.xlsx', contentType: 'application/octet-stream', data: exported.rawPayload },
    ])
    const back = await t.app.inject({
      method: 'POST',
      url: '/api/admin/imports/',
      headers: { ...headers, ...form.headers },
      payload: form.payload,
    })
    expect(back.json().summary).toEqual({ ok: 0, fixed: 0, rejected: 0, duplicate: 2 })
    expect(back.json().rows.map((row: { question: { text: { en: string } } }) => row.question.text.en)).toContain(
      xml.rows[0]!.question.text.en,
    )
  })
})
