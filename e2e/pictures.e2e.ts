import { strToU8, zipSync } from 'fflate'
import type { Page } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import enBank from '../web/src/i18n/locales/en/bank.json'
import enCommon from '../web/src/i18n/locales/en/common.json'
import enImport from '../web/src/i18n/locales/en/import.json'
import enQuiz from '../web/src/i18n/locales/en/quiz.json'
import {
  PHONE,
  TABLET,
  createAdmin,
  createQuiz,
  expectNoSidewaysScroll,
  imageRendered,
  interpolate,
  screenshot,
  setUpJourney,
  startNetworkLink,
  submitExam,
  waitForHeading,
  type NetworkLink,
} from './fixtures'

// Issue 43 against the real server: an admin imports a Word file whose first question holds a map pasted as a
// picture, sees the picture in the dry run and in the bank; a learner on a 360 px phone sees it in the exam, still
// after the connection is gone and the page reloaded, and in the report.

const ADMIN = { username: 'pictureadmin', password: 'Kathmandu-Pictures-77' }
const PASSWORD = 'Learner-pass-42'
const QUESTION = 'Which province is shaded on this map?'
const CAPTION = 'Map of the seven provinces'

/** A map-like picture, as a scanned page would hold: 1,800 px wide, so the server shrinks it to 1,600. */
async function mapPicture(): Promise<Buffer> {
  const provinces = ['#fde68a', '#bbf7d0', '#bfdbfe', '#fecaca', '#ddd6fe', '#fbcfe8', '#a7f3d0']
  const shapes = provinces
    .map(
      (fill, index) =>
        `<polygon points="${100 + index * 230},500 ${300 + index * 230},120 ${360 + index * 230},620" fill="${fill}" stroke="#334155" stroke-width="6"/>`,
    )
    .join('')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1800" height="900"><rect width="1800" height="900" fill="#f8fafc"/>${shapes}<circle cx="700" cy="420" r="40" fill="#dc2626"/></svg>`
  return sharp(Buffer.from(svg)).png().toBuffer()
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
const NS = `${W} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"`
const text = (value: string) => `<w:r><w:t xml:space="preserve">${value}</w:t></w:r>`
const paragraph = (...runs: string[]) => `<w:p>${runs.join('')}</w:p>`
const drawing = `<w:r><w:drawing><wp:inline><wp:extent cx="5400000" cy="2700000"/><wp:docPr id="1" name="Picture 1" descr="${CAPTION}"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip r:embed="rIdMap"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`

/** A Word file as an institute's typist makes it: the question, the map pasted under it, the options, the answer. */
function wordFileWithMap(map: Buffer): Buffer {
  const body = [
    paragraph(text(`1. ${QUESTION}`)),
    paragraph(drawing),
    paragraph(text('A. Koshi')),
    paragraph(text('B. Bagmati')),
    paragraph(text('C. Gandaki')),
    paragraph(text('D. Lumbini')),
    paragraph(text('Answer: B')),
  ].join('')
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
      '_rels/.rels': strToU8(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
      'word/_rels/document.xml.rels': strToU8(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdMap" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/image1.png"/></Relationships>',
      ),
      'word/media/image1.png': new Uint8Array(map),
      'word/document.xml': strToU8(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${NS}><w:body>${body}</w:body></w:document>`,
      ),
    }),
  )
}

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
const journey = setUpJourney()
let adminToken: string
let network: NetworkLink

beforeAll(async () => {
  adminToken = await createAdmin(journey.server, ADMIN)
  network = await startNetworkLink(journey.server)
})
afterAll(() => network.close())

/** The map wherever it shows: an <img> of a stored picture, loaded, with the size the server gave it. */
const mapOn = (page: Page) => page.locator('img[src^="/api/pictures/"]').first()

async function expectMapShown(page: Page) {
  const map = mapOn(page)
  await map.waitFor()
  await expect.poll(() => imageRendered(map)).toBe(true)
  expect(await map.getAttribute('width')).toBe('1600')
  expect(await map.getAttribute('height')).toBe('800')
}

describe('a picture from a Word file to a learner on a phone', () => {
  let questionId: number
  let pictureUrl: string

  it('comes in through the import: the admin sees the map in the dry run, then in the bank', async () => {
    const page = await journey.open({ user: ADMIN, viewport: TABLET, language: 'en' })
    await page.goto('/admin/import')
    await waitForHeading(page, enImport.title)
    const file = wordFileWithMap(await mapPicture())
    await page
      .getByLabel(enImport.input.file_label)
      .setInputFiles({ name: 'gk.docx', mimeType: DOCX_TYPE, buffer: file })
    await page.getByRole('button', { name: enImport.check }).click()
    const summary = page.locator('.import-summary')
    await summary.waitFor()
    await expect
      .poll(() => summary.textContent())
      .toContain(interpolate(enImport.summary, { total: 1, ok: 1, fixed: 0, rejected: 0, duplicate: 0 }))
    await expectMapShown(page)
    await screenshot(page, 'pictures-import-dry-run-en')

    await page.getByRole('button', { name: interpolate(enImport.commit.button_one, { n: 1 }) }).click()
    await page.getByRole('link', { name: enImport.commit.open_bank }).click()
    // The import page shows the question's text too: wait for the bank's address before reading its ids.
    await page.waitForURL((url) => url.pathname.startsWith('/admin/bank') && url.searchParams.has('ids'))
    await page.getByText(QUESTION).first().waitFor()
    questionId = Number(new URL(page.url()).searchParams.get('ids'))
    const { body } = await journey.server.api<{ image: { picture: { url: string } | null } | null }>(
      'GET',
      `/api/admin/bank/questions/${questionId}/`,
      undefined,
      adminToken,
    )
    pictureUrl = body.image!.picture!.url
    expect(pictureUrl).toMatch(/^\/api\/pictures\/[0-9a-f]{64}\.webp$/)
    // The bank's editor shows the picture as learners will see it.
    await page.getByRole('button', { name: interpolate(enBank.list.edit_named, { id: questionId }) }).click()
    await expectMapShown(page)
    await screenshot(page, 'pictures-bank-en')
  })

  it('shows on a 360 px phone in the exam, offline after a reload, and in the report', async () => {
    const quizId = await createQuiz(journey.server, adminToken, {
      title: { en: 'Provinces', ne: 'प्रदेशहरू' },
      duration_minutes: 20,
      questions: [
        {
          text: { en: QUESTION, ne: 'नक्सामा रङ लगाइएको प्रदेश कुन हो?' },
          image: { picture: { url: pictureUrl }, caption: { en: CAPTION } },
          options: ['Koshi', 'Bagmati', 'Gandaki', 'Lumbini'].map((name, index) => ({
            text: { en: name },
            is_correct: index === 1,
          })),
        },
        {
          text: { en: 'Which is the capital?' },
          options: [{ text: { en: 'Kathmandu' }, is_correct: true }, { text: { en: 'Pokhara' } }],
        },
      ],
    })
    journey.server.cli('create-learners', ['--count', '1', '--prefix', 'mapreader', '--password', PASSWORD])
    const page = await journey.open({
      viewport: PHONE,
      user: { username: 'mapreader1', password: PASSWORD },
      baseUrl: network.baseUrl,
    })
    await page.goto(`/quiz/${quizId}`)
    await page.getByText(enQuiz.kept.all, { exact: true }).waitFor()
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready
      if (!navigator.serviceWorker.controller) {
        await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve))
      }
    })
    await expectMapShown(page)
    const box = (await mapOn(page).boundingBox())!
    expect(box.width).toBeLessThanOrEqual(360)
    expect(box.height).toBeGreaterThan(100)
    await expectNoSidewaysScroll(page)
    await screenshot(page, 'pictures-exam-en-phone')

    // A tap opens it full screen, and the dialog closes back to the question.
    await mapOn(page).click()
    const dialog = page.getByRole('dialog', { name: CAPTION })
    await dialog.waitFor()
    // Fitted to the screen first, the whole map seen; a press shows it at its own size, to read a detail.
    const enlarged = dialog.locator('img')
    await expect.poll(async () => (await enlarged.boundingBox())!.width).toBeLessThanOrEqual(360)
    await screenshot(page, 'pictures-exam-en-phone-full-screen')
    await dialog.getByRole('button', { name: enCommon.picture.actual_size }).click()
    await expect.poll(async () => (await enlarged.boundingBox())!.width).toBeGreaterThanOrEqual(1600)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })

    network.cut()
    await page.context().setOffline(true)
    page.on('dialog', (confirm) => void confirm.accept())
    await page.reload()
    await page.getByText(enQuiz.offline, { exact: true }).waitFor()
    await expectMapShown(page)
    await page.getByRole('radio', { name: /^Bagmati/ }).check()
    network.restore()
    await page.context().setOffline(false)

    const score = await submitExam(page)
    await score.waitFor()
    await score.getByRole('link', { name: enQuiz.score.view_report }).click()
    await page.locator('.analysis__row').first().waitFor()
    await page.locator('.analysis__row').first().click()
    await expectMapShown(page)
    await screenshot(page, 'pictures-report-en-phone')
  })
})
