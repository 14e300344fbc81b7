import ExcelJS from 'exceljs'
import { strToU8, zipSync } from 'fflate'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import neBank from '../web/src/i18n/locales/ne/bank.json'
import enImport from '../web/src/i18n/locales/en/import.json'
import neImport from '../web/src/i18n/locales/ne/import.json'
import {
  TABLET,
  createAdmin,
  digits,
  expectAccessible,
  interpolate,
  screenshot,
  setUpJourney,
  waitForHeading,
} from './fixtures'

// Issue 27 against the real server: an admin imports an Excel sheet whose Nepali columns are typed in Preeti and a
// Word file with runs in Preeti and in a Unicode font, reads each dry run in Nepali, commits, finds the questions
// in the bank, and importing the sheet again shows every row as a duplicate.

const ADMIN = { username: 'importadmin', password: 'Kathmandu-Import-77' }

/** A sheet in the template's columns; the `_ne` cells typed in Preeti (as text and by the cell's font). */
async function preetiSheet(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet('Questions')
  const header = [
    'question_en',
    'question_ne',
    'option_a_en',
    'option_a_ne',
    'option_b_en',
    'option_b_ne',
    'option_c_en',
    'option_c_ne',
    'correct',
    'topic',
  ]
  sheet.addRow(header)
  sheet.addRow([
    'When was the Public Service Commission founded?',
    'nf]s ;]jf cfof]u slxn] :yfkgf eof] <',
    '2007 BS',
    '@))& ;fn',
    '2008 BS',
    '@))* ;fn',
    '2015 BS',
    '@)!% ;fn',
    'B',
    'Loksewa',
  ])
  sheet.addRow([
    'When was the Constitution of Nepal promulgated?',
    'g]kfnsf] ;+ljwfg slxn] hf/L eof] <',
    '2063 BS',
    '@)^# ;fn',
    '2072 BS',
    '@)&@ ;fn',
    '2047 BS',
    '@)$& ;fn',
    'B',
    'Constitution',
  ])
  for (const column of [2, 4, 6, 8])
    for (const row of [2, 3]) sheet.getRow(row).getCell(column).font = { name: 'Preeti', size: 14 }
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
type Run = [font: string, text: string]
const paragraph = (...runs: Run[]) =>
  `<w:p>${runs
    .map(
      ([font, text]) =>
        `<w:r><w:rPr><w:rFonts w:ascii="${font}" w:hAnsi="${font}" w:cs="${font}"/></w:rPr><w:t xml:space="preserve">${xmlEscape(text)}</w:t></w:r>`,
    )
    .join('')}</w:p>`

/** A minimal Word file: one question typed in Preeti after Latin numbering, one typed in Unicode Nepali. */
function mixedDocx(): Buffer {
  const body = [
    paragraph(['Arial', '1. '], ['Preeti', "g]kfnsf] /fhwfgL s'g xf] <"]),
    paragraph(['Arial', 'A. '], ['Preeti', 'kf]v/f']),
    paragraph(['Arial', 'B. '], ['Preeti', 'sf7df8f}+']),
    paragraph(['Arial', 'C. '], ['Preeti', 'lj/f6gu/']),
    paragraph(['Arial', 'Answer: B']),
    paragraph(['Kalimati', '२. विश्वको सबैभन्दा अग्लो हिमाल कुन हो?']),
    paragraph(['Kalimati', 'क. सगरमाथा']),
    paragraph(['Kalimati', 'ख. कञ्चनजङ्घा']),
    paragraph(['Kalimati', 'ग. धौलागिरि']),
    paragraph(['Kalimati', 'उत्तर: क']),
  ].join('')
  const files = {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    'word/document.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
    ),
  }
  return Buffer.from(zipSync(files))
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'

const journey = setUpJourney()
let sheet: Buffer

beforeAll(async () => {
  await createAdmin(journey.server, ADMIN)
  sheet = await preetiSheet()
})

/** Chooses the file and reads the dry run's summary (the live region) once it is there. */
async function dryRun(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  await page.goto('/admin/import')
  await waitForHeading(page, neImport.title)
  await page.getByLabel(neImport.input.file_label).setInputFiles(file)
  await page.getByRole('button', { name: neImport.check }).click()
  const summary = page.locator('.import-summary')
  await summary.waitFor()
  return summary
}

const summaryText = (counts: { total: number; ok: number; fixed: number; rejected: number; duplicate: number }) =>
  interpolate(neImport.summary, counts)

describe('importing an archive', () => {
  it('brings in a sheet with a Preeti column: the dry run in Nepali shows the Unicode, then the bank has it', async () => {
    const page = await journey.open({ user: ADMIN, viewport: TABLET, language: 'ne' })
    const summary = await dryRun(page, { name: 'loksewa.xlsx', mimeType: XLSX_TYPE, buffer: sheet })
    await expect
      .poll(() => summary.textContent())
      .toContain(summaryText({ total: 2, ok: 0, fixed: 2, rejected: 0, duplicate: 0 }))
    await expect
      .poll(() => summary.textContent())
      .toContain(interpolate(neImport.settings.detected, { format: neImport.formats.xlsx }))
    // The question as it will be stored (its Unicode is also in the conversions beside it).
    const questions = page.locator('.import-question__text')
    await expect.poll(() => questions.getByText('लोक सेवा आयोग कहिले स्थापना भयो ?').count()).toBe(1)
    // The conversion, as typed beside its Unicode, for the admin to check.
    const conversions = page.getByRole('table', { name: neImport.table.converted }).first()
    await expect.poll(() => conversions.getByText('nf]s ;]jf cfof]u slxn] :yfkgf eof] <').count()).toBe(1)
    await expectAccessible(page)
    await screenshot(page, 'import-dry-run-ne')

    await page.getByRole('button', { name: interpolate(neImport.commit.button_other, { n: 2 }) }).click()
    await page.getByText(interpolate(neImport.commit.done, { imported: 2, duplicates: 0 })).waitFor()
    await page.getByRole('link', { name: neImport.commit.open_bank }).click()
    await waitForHeading(page, neBank.title)
    expect(page.url()).toMatch(/\/admin\/bank\?ids=\d+(%2C|,)\d+$/)
    await expect
      .poll(() => page.getByText(interpolate(neBank.list.total, { total: 2 }), { exact: true }).count())
      .toBe(1)
    await expect.poll(() => page.getByText(/नेपालको संविधान कहिले जारी भयो/).count()).toBe(1)
  })

  it('brings in a Word file whose runs are in Preeti and in a Unicode font', async () => {
    const page = await journey.open({ user: ADMIN, viewport: TABLET, language: 'ne' })
    const summary = await dryRun(page, { name: 'gk.docx', mimeType: DOCX_TYPE, buffer: mixedDocx() })
    await expect
      .poll(() => summary.textContent())
      .toContain(interpolate(neImport.settings.detected, { format: neImport.formats.docx }))
    const table = page.getByRole('table', { name: neImport.table.caption })
    const questions = page.locator('.import-question__text')
    await expect.poll(() => questions.getByText('नेपालको राजधानी कुन हो ?').count()).toBe(1)
    await expect.poll(() => questions.getByText('विश्वको सबैभन्दा अग्लो हिमाल कुन हो?').count()).toBe(1)
    // Only the Preeti row has conversions; the Unicode row is left as typed.
    await expect.poll(() => page.getByRole('table', { name: neImport.table.converted }).count()).toBe(1)
    await expect.poll(() => table.getByText('sf7df8f}+').count()).toBe(1)
    await screenshot(page, 'import-docx-ne')

    await page.getByRole('button', { name: interpolate(neImport.commit.button_other, { n: 2 }) }).click()
    await page.getByRole('link', { name: neImport.commit.open_bank }).click()
    await waitForHeading(page, neBank.title)
    await expect.poll(() => page.getByText(/विश्वको सबैभन्दा अग्लो हिमाल/).count()).toBe(1)
  })

  it('shows every row of the same sheet as a duplicate the second time, and offers nothing to import', async () => {
    const page = await journey.open({ user: ADMIN, viewport: TABLET, language: 'ne' })
    const summary = await dryRun(page, { name: 'loksewa.xlsx', mimeType: XLSX_TYPE, buffer: sheet })
    await expect
      .poll(() => summary.textContent())
      .toContain(summaryText({ total: 2, ok: 0, fixed: 0, rejected: 0, duplicate: 2 }))
    await page.getByRole('button', { name: `${neImport.status.duplicate} ${digits('2', 'ne')}` }).click()
    await expect.poll(() => page.locator('.import-row--duplicate').count()).toBe(2)
    await expect.poll(() => page.getByText(neImport.commit.nothing).count()).toBe(1)
  })

  it('has both pages readable in English too, and the converter turns Preeti into Unicode as it is typed', async () => {
    const page = await journey.open({ user: ADMIN, viewport: TABLET, language: 'en' })
    await page.goto('/admin/import')
    await waitForHeading(page, enImport.title)
    await expectAccessible(page)
    await screenshot(page, 'import-page-en')
    await page.getByRole('link', { name: enImport.converter_link }).click()
    await waitForHeading(page, enImport.converter.title)
    await page.getByLabel(enImport.converter.input).fill('nf]s ;]jf cfof]u')
    await expect.poll(() => page.getByLabel(enImport.converter.output).inputValue()).toBe('लोक सेवा आयोग')
    await expectAccessible(page)
    await screenshot(page, 'font-converter-en')

    const nepali = await journey.open({ user: ADMIN, viewport: TABLET, language: 'ne' })
    await nepali.goto('/admin/font-converter')
    await waitForHeading(nepali, neImport.converter.title)
    await nepali.getByLabel(neImport.converter.input).fill('g]kfn')
    await expect.poll(() => nepali.getByLabel(neImport.converter.output).inputValue()).toBe('नेपाल')
    await screenshot(nepali, 'font-converter-ne')
    await nepali.goto('/admin/import')
    await waitForHeading(nepali, neImport.title)
    await screenshot(nepali, 'import-page-ne')
  })
})
