import { ImportDryRunSchema, pictureMessages, type ImportDryRun } from '@quiz/contracts'
import ExcelJS from 'exceljs'
import { strToU8, zipSync } from 'fflate'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { multipart } from '../../test/auth-requests'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { warmImportWorker } from '../../test/fixtures/import-files.fixtures'
import { useTestApp } from '../../test/test-app'

// API.md "Import": pictures come in as pictures. Small pictures made with sharp, files built in the real formats.

const png = (r: number, g: number, b: number) =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer()
const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
const NS = `${W} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"`
const text = (value: string) => `<w:r><w:t xml:space="preserve">${value}</w:t></w:r>`
const drawing = (rel: string, alt: string, link = false) =>
  `<w:r><w:drawing><wp:inline><wp:extent cx="381000" cy="285750"/><wp:docPr id="1" name="Picture 1" descr="${alt}"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip ${link ? 'r:link' : 'r:embed'}="${rel}"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`
const p = (...runs: string[]) => `<w:p>${runs.join('')}</w:p>`

/** A docx whose paragraphs are `body`, with word/media/{name} for each of `media` (rId = the name's stem). */
function docx(body: string[], media: Record<string, Buffer>, external: Record<string, string> = {}) {
  const rels = [
    ...Object.keys(media).map(
      (name) =>
        `<Relationship Id="${name.split('.')[0]}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/${name}"/>`,
    ),
    ...Object.entries(external).map(
      ([id, url]) =>
        `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="${url}" TargetMode="External"/>`,
    ),
  ].join('')
  return Buffer.from(
    zipSync({
      'word/document.xml': strToU8(`<w:document ${NS}><w:body>${body.join('')}</w:body></w:document>`),
      'word/_rels/document.xml.rels': strToU8(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`,
      ),
      ...Object.fromEntries(
        Object.entries(media).map(([name, bytes]) => [`word/media/${name}`, new Uint8Array(bytes)]),
      ),
    }),
  )
}

const moodleQuestion = (questionText: string, files = '', extra = '') => `
  <question type="multichoice">
    <name><text>Q</text></name>
    <questiontext format="html"><text><![CDATA[${questionText}]]></text>${files}</questiontext>
    ${extra}
    <single>true</single>
    <answer fraction="100" format="html"><text>Yes</text></answer>
    <answer fraction="0" format="html"><text>No</text></answer>
  </question>`

beforeAll(warmImportWorker, 180_000)

describe.each(dialects)('pictures in imports on %s', (dialect) => {
  const t = useTestApp(dialect)
  const asAdmin = async () => bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))

  const upload = async (headers: Record<string, string>, data: Buffer, filename: string) => {
    const form = multipart({}, [{ field: 'file', filename, contentType: 'application/octet-stream', data }])
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/imports/',
      headers: { ...headers, ...form.headers },
      payload: form.payload,
    })
    expect(response.statusCode).toBe(201)
    return ImportDryRunSchema.parse(response.json()) as ImportDryRun
  }
  const commit = async (headers: Record<string, string>, id: number) =>
    (await t.app.inject({ method: 'POST', url: `/api/admin/imports/${id}/commit/`, headers, payload: {} })).json()
  const messagesOf = (run: ImportDryRun, row: number) =>
    run.rows
      .find((r) => r.row === row)!
      .messages.map((m) => m.message)
      .join(' | ')

  it('brings a Word file’s pictures in on their question and option, serves them, commits them and exports them back', async () => {
    const headers = await asAdmin()
    const [red, blue] = await Promise.all([png(200, 0, 0), png(0, 0, 200)])
    const file = docx(
      [
        p(text('1. Which colour is shown?'), drawing('rId1', 'A red square')),
        p(text('A. Blue'), drawing('rId2', 'नीलो')),
        p(text('B. Red')),
        p(text('Answer: B')),
      ],
      { 'rId1.png': red, 'rId2.png': blue },
    )
    const run = await upload(headers, file, 'colours.docx')
    expect(run.summary).toEqual({ ok: 1, fixed: 0, rejected: 0, duplicate: 0 })
    const question = run.rows[0]!.question
    expect(question.image).toMatchObject({
      svg: null,
      picture: { width: 40, height: 30 },
      caption: { en: 'A red square', ne: '' },
    })
    expect(question.options[0]!.image).toMatchObject({ caption: { en: '', ne: 'नीलो' } })
    expect(question.options[1]!.image).toBeNull()
    const served = await t.app.inject({ method: 'GET', url: question.image!.picture.url })
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe('image/webp')

    const done = await commit(headers, run.import_id)
    const id = done.question_ids[0]
    const bank = await t.app.inject({ method: 'GET', url: `/api/admin/bank/questions/${id}/`, headers })
    expect(bank.json().image).toMatchObject({ picture: question.image!.picture, caption: { en: 'A red square' } })
    expect(bank.json().options[0].image).toMatchObject({ picture: question.options[0]!.image!.picture })

    // Export, then into a bank that no longer holds the question: every picture back where it was, with its caption.
    const exported = await t.app.inject({ method: 'GET', url: '/api/admin/bank/export.xlsx', headers })
    expect(exported.statusCode).toBe(200)
    expect((await upload(headers, exported.rawPayload, 'bank.xlsx')).summary.duplicate).toBe(1)
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/admin/bank/questions/${id}/`, headers })).statusCode,
    ).toBe(204)
    const back = await upload(headers, exported.rawPayload, 'bank.xlsx')
    expect(back.summary).toEqual({ ok: 1, fixed: 0, rejected: 0, duplicate: 0 })
    const again = back.rows[0]!.question
    expect(again.image).toMatchObject({ picture: { width: 40, height: 30 }, caption: { en: 'A red square', ne: '' } })
    expect(again.options[0]!.image).toMatchObject({ picture: { width: 40, height: 30 }, caption: { ne: 'नीलो' } })
    expect(again.options[1]!.image).toBeNull()
    // Lossless: the export's PNG of each stored picture is that picture again, not a second encoding of it.
    expect(again.image!.picture.url).toBe(question.image!.picture.url)
    expect(again.options[0]!.image!.picture.url).toBe(question.options[0]!.image!.picture.url)
    const reread = await commit(headers, back.import_id)
    const restored = await t.app.inject({
      method: 'GET',
      url: `/api/admin/bank/questions/${reread.question_ids[0]}/`,
      headers,
    })
    expect(restored.json().image.picture.url).toBe(again.image!.picture.url)
    expect((await t.app.inject({ method: 'GET', url: again.image!.picture.url })).statusCode).toBe(200)
  })

  it('brings a Word passage’s picture in on the bank passage, and exports it on each row for the import to read back', async () => {
    const headers = await asAdmin()
    const map = await png(0, 150, 0)
    const file = docx(
      [
        p(text('Passage: Study the map.')),
        p(drawing('rId1', 'A map of Karnali')),
        p(text('1. Which district is north?')),
        p(text('A. Humla')),
        p(text('B. Jhapa')),
        p(text('Answer: A')),
        p(text('2. Which district is east?')),
        p(text('A. Humla')),
        p(text('B. Jhapa')),
        p(text('Answer: B')),
        p(text('End of passage')),
      ],
      { 'rId1.png': map },
    )
    const run = await upload(headers, file, 'map.docx')
    expect(run.summary).toEqual({ ok: 2, fixed: 0, rejected: 0, duplicate: 0 })
    const image = run.rows[0]!.passage!.image!
    expect(image).toMatchObject({ svg: null, picture: { width: 40, height: 30 }, caption: { en: 'A map of Karnali' } })
    expect(run.rows[1]!.passage!.image).toEqual(image)
    const done = await commit(headers, run.import_id)
    const passages = await t.app.inject({ method: 'GET', url: '/api/admin/bank/passages/', headers })
    const [passage] = passages.json().results
    expect(passage.question_ids).toEqual(done.question_ids)
    expect(passage.image).toMatchObject({ picture: image.picture, caption: { en: 'A map of Karnali', ne: '' } })

    // Exported on each of the passage's rows, then into a bank without them: the passage and its picture come back.
    const exported = await t.app.inject({ method: 'GET', url: '/api/admin/bank/export.xlsx', headers })
    expect(exported.statusCode).toBe(200)
    const remove = (url: string) => t.app.inject({ method: 'DELETE', url, headers })
    expect((await remove(`/api/admin/bank/passages/${passage.id}/`)).statusCode).toBe(204)
    for (const id of done.question_ids) expect((await remove(`/api/admin/bank/questions/${id}/`)).statusCode).toBe(204)
    const back = await upload(headers, exported.rawPayload, 'bank.xlsx')
    expect(back.summary).toEqual({ ok: 2, fixed: 0, rejected: 0, duplicate: 0 })
    for (const row of back.rows)
      expect(row.passage).toMatchObject({
        text: { en: 'Study the map.' },
        image: { picture: { url: image.picture.url }, caption: { en: 'A map of Karnali', ne: '' } },
      })
    const again = await commit(headers, back.import_id)
    const restored = (await t.app.inject({ method: 'GET', url: '/api/admin/bank/passages/', headers })).json().results
    expect(restored).toHaveLength(1)
    expect(restored[0]).toMatchObject({ question_ids: again.question_ids, image: { picture: image.picture } })
  })

  it('refuses a passage of two pictures at its questions, and a passage picture on a row with no passage', async () => {
    const headers = await asAdmin()
    const [green, blue] = await Promise.all([png(0, 150, 0), png(0, 0, 200)])
    const file = docx(
      [
        p(text('Passage: Two maps.'), drawing('rId1', '')),
        p(drawing('rId2', '')),
        p(text('1. Which is greener?')),
        p(text('A. x')),
        p(text('B. y')),
        p(text('Answer: A')),
      ],
      { 'rId1.png': green, 'rId2.png': blue },
    )
    const run = await upload(headers, file, 'maps.docx')
    expect(run.rows.map((row) => row.status)).toEqual(['rejected'])
    expect(run.rows[0]!.messages).toEqual([
      expect.objectContaining({
        field: 'passage.image',
        code: 'image',
        message: expect.stringContaining('The passage holds 2 pictures'),
      }),
    ])

    const workbook = new ExcelJS.Workbook()
    const sheet = workbook.addWorksheet('Questions')
    sheet.addRow(['question_en', 'option_a_en', 'option_b_en', 'correct', 'passage_image'])
    sheet.addRow(['Which is green?', 'x', 'y', 'A', ''])
    sheet.addImage(workbook.addImage({ buffer: green as never, extension: 'png' }), {
      tl: { col: 4, row: 1 },
      ext: { width: 40, height: 30 },
    })
    const lone = await upload(headers, Buffer.from(await workbook.xlsx.writeBuffer()), 'lone.xlsx')
    expect(lone.rows.map((row) => [row.status, row.passage])).toEqual([['rejected', null]])
    expect(lone.rows[0]!.messages).toEqual([
      expect.objectContaining({
        field: 'passage.image',
        code: 'image',
        message: expect.stringContaining('is for a passage, but this row has none'),
      }),
    ])
  })

  it('rejects, naming it, a linked picture, two pictures in one question, and a file that is not a picture', async () => {
    const headers = await asAdmin()
    const red = await png(200, 0, 0)
    const file = docx(
      [
        p(text('1. Linked?'), drawing('rId9', '', true)),
        p(text('A. x')),
        p(text('B. y')),
        p(text('Answer: A')),
        p(text('2. Two?'), drawing('rId1', ''), drawing('rId1', '')),
        p(text('A. x')),
        p(text('B. y')),
        p(text('Answer: A')),
        p(text('3. Text posing as a picture?'), drawing('rId2', '')),
        p(text('A. x')),
        p(text('B. y')),
        p(text('Answer: A')),
      ],
      { 'rId1.png': red, 'rId2.png': Buffer.from('just some text, not a picture') },
      { rId9: 'https://example.com/a.png' },
    )
    const run = await upload(headers, file, 'bad.docx')
    expect(run.summary).toEqual({ ok: 0, fixed: 0, rejected: 3, duplicate: 0 })
    expect(run.rows.every((row) => row.question.image === null)).toBe(true)
    expect(messagesOf(run, 1)).toContain(pictureMessages.linked)
    expect(messagesOf(run, 5)).toContain('The question holds 2 pictures')
    expect(messagesOf(run, 9)).toContain('The picture rId2.png is not a picture')
  })

  it('reads Moodle XML’s @@PLUGINFILE@@ files and Moodle 1.9’s <image_base64>, and rejects a missing file', async () => {
    const headers = await asAdmin()
    const red = await png(200, 0, 0)
    const xml = `<?xml version="1.0" encoding="UTF-8"?><quiz>
      ${moodleQuestion('<p>Shown?</p><p><img src="@@PLUGINFILE@@/red%20square.png" alt="red"></p>', `<file name="red square.png" path="/" encoding="base64">${red.toString('base64')}</file>`)}
      ${moodleQuestion('<p>Missing?</p><img src="@@PLUGINFILE@@/gone.png">')}
      ${moodleQuestion('<p>Old?</p>', '', `<image>old.png</image><image_base64>${red.toString('base64')}</image_base64>`)}
    </quiz>`
    const run = await upload(headers, Buffer.from(xml), 'quiz.xml')
    const [plugin, missing, old] = run.rows
    expect(plugin).toMatchObject({ status: 'ok', question: { image: { caption: { en: 'red' } } } })
    expect(missing).toMatchObject({ status: 'rejected', question: { image: null } })
    expect(messagesOf(run, missing!.row)).toContain('The picture gone.png is not in this file')
    expect(old).toMatchObject({ status: 'ok', question: { image: { picture: plugin!.question.image!.picture } } })
  })

  it('reads <img src="data:…"> in GIFT and rejects a picture linked by an http address', async () => {
    const headers = await asAdmin()
    const blue = await png(0, 0, 200)
    const gift = [
      `[html]<p>Which?</p><img src\\="${dataUrl(blue)}" alt\\="blue"> {=<b>Blue</b> ~Red}`,
      '',
      `[html]Linked? <img src\\="https\\://example.com/x.png"> {=Yes ~No}`,
      '',
      `[html]An option's picture? {=Yes <img src\\="${dataUrl(blue)}"> ~No}`,
    ].join('\n')
    const run = await upload(headers, Buffer.from(gift), 'quiz.gift')
    expect(run.rows.map((row) => row.status)).toEqual(['ok', 'rejected', 'ok'])
    expect(run.rows[0]!.question.image).toMatchObject({ caption: { en: 'blue' }, picture: { width: 40 } })
    expect(messagesOf(run, run.rows[1]!.row)).toContain(pictureMessages.linked)
    expect(run.rows[2]!.question.options[0]!.image?.picture.url).toBe(run.rows[0]!.question.image!.picture.url)
  })
})
