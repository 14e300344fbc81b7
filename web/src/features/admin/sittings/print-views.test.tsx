import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { patterns } from '../../../lib/paths'
import { fakeNetwork, page, renderRoutes, signInAs } from '../../../test/page-test-utils'
import { paper, roster, sitting, typedPaper } from './sitting-fixtures'
import { Component as PrintPaperPage } from './print-paper-page'
import { bookletPageNames, Component as PrintBookletsPage } from './print-booklets-page'
import { Component as PrintSheetsPage } from './print-sheets-page'
import { axeViolations } from '../../../test/axe'

vi.setConfig({ testTimeout: 20_000 })

beforeEach(() => signInAs({ username: 'boss', is_admin: true }))
afterEach(() => vi.unstubAllGlobals())

const routes = [
  page(PrintPaperPage, patterns.adminSittingPaper),
  page(PrintSheetsPage, patterns.adminSittingSheets),
  page(PrintBookletsPage, patterns.adminSittingBooklets),
]

describe('printing question papers', () => {
  it("prints a set's booklet: the set and page number in every page's margin, the marking scheme first, both languages", async () => {
    const network = fakeNetwork({
      'GET /api/admin/sittings/9/': () => ({ body: sitting }),
      'GET /api/admin/sittings/9/paper/': () => ({ body: paper }),
    })
    const print = vi.fn()
    vi.stubGlobal('print', print)
    const { container } = renderRoutes(routes, { path: '/admin/sittings/9/print/paper?set=B' })
    const booklet = await screen.findByRole('article', { name: 'Booklet, set A' })
    expect(network.calls.some((call) => call.path === '/api/admin/sittings/9/paper/')).toBe(true)
    const pageRule = container.querySelector('style')!.textContent!
    expect(pageRule).toContain('size: A4')
    expect(pageRule).toContain('@top-right { content: "Set A / सेट A"')
    expect(pageRule).toContain('counter(page)')
    // The scheme: each section's questions and marks, before the questions.
    const [scheme, questionTable] = within(booklet).getAllByRole('table')
    expect(
      within(scheme!)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'Section / खण्डQuestions / प्रश्नहरूRight answer / सही उत्तरWrong answer / गलत उत्तर',
      'Constitutionसंविधान1–1+2.00−0.40',
      'Mathsगणित2–2+1.000.00',
    ])
    expect(within(booklet).getByText('Article 1 says?')).toBeInTheDocument()
    expect(within(booklet).getByText('धारा १ ले के भन्छ?')).toHaveAttribute('lang', 'ne')
    // Maths as the server rendered it; a text with no Nepali is printed once.
    expect(booklet.querySelector('math')).not.toBeNull()
    expect(within(booklet).getByRole('img', { name: 'Picture for question 2' })).toBeInTheDocument()
    // A question's table is printed as a table, its headers as column headers.
    expect(
      within(questionTable!)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['x', 'x²'])

    await userEvent.click(screen.getByRole('radio', { name: 'English' }))
    expect(within(booklet).queryByText('धारा १ ले के भन्छ?')).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Print set B' }))
    expect(print).toHaveBeenCalled()
  })
})

describe("printing a paper's question types", () => {
  it('says a multiple question takes several, prints boxes for a number, and a passage once before its questions', async () => {
    fakeNetwork({
      'GET /api/admin/sittings/9/': () => ({ body: sitting }),
      'GET /api/admin/sittings/9/paper/': () => ({ body: typedPaper }),
    })
    const { container } = renderRoutes(routes, { path: '/admin/sittings/9/print/paper?set=A' })
    const booklet = await screen.findByRole('article', { name: 'Booklet, set A' })
    const [multiple, numeric, third] = within(booklet)
      .getAllByRole('listitem')
      .filter((item) => item.classList.contains('booklet__question'))
    expect(multiple).toHaveTextContent('Choose one or more / एक वा बढी विकल्प छान्नुहोस्')
    expect(within(multiple!).getAllByRole('listitem')).toHaveLength(3)
    expect(numeric).toHaveTextContent('The answer is a number: write it in the boxes / उत्तर एउटा सङ्ख्या हो')
    expect(within(numeric!).queryAllByRole('listitem')).toHaveLength(0)
    expect(numeric!.querySelectorAll('.booklet__box')).toHaveLength(8)
    expect(third).not.toHaveTextContent('Choose one or more')
    // The passage once, before question 3, naming the questions it serves, in both languages.
    const passages = within(booklet).getAllByRole('region', { name: 'Passage / अनुच्छेद' })
    expect(passages).toHaveLength(1)
    expect(passages[0]).toHaveTextContent('Questions 3–4 refer to this passage / प्रश्न 3–4 यस अनुच्छेदमा आधारित छन्')
    expect(within(passages[0]!).getByText('कोशी नेपालको सबैभन्दा ठूलो नदी हो।')).toHaveAttribute('lang', 'ne')
    expect(passages[0]!.compareDocumentPosition(third!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    expect(passages[0]!.compareDocumentPosition(numeric!) & Node.DOCUMENT_POSITION_PRECEDING).toBeTruthy()
    expect(container.textContent!.split('The Koshi is the largest river')).toHaveLength(2)

    await userEvent.click(screen.getByRole('radio', { name: 'Nepali' }))
    expect(booklet).toHaveTextContent('प्रश्न 3–4 यस अनुच्छेदमा आधारित छन्')
    expect(booklet).not.toHaveTextContent('refer to this passage')
    expect(await axeViolations(container)).toEqual([])
  })
})

describe('printing answer sheets', () => {
  it("draws every roster learner's sheet and the blank ones asked for, each at A4, then prints", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 210 297"/>'
    const network = fakeNetwork({
      'GET /api/admin/sittings/9/': () => ({ body: sitting }),
      'GET /api/admin/sittings/9/roster/': () => ({ body: roster }),
      'GET /api/admin/sittings/9/sheets/1.svg': () => ({ body: svg }),
      'GET /api/admin/sittings/9/sheets/2.svg': () => ({ body: svg }),
      'GET /api/admin/sittings/9/sheets/3.svg': () => ({ body: svg }),
      'GET /api/admin/sittings/9/sheets/blank.svg': () => ({ body: svg }),
    })
    const print = vi.fn()
    vi.stubGlobal('print', print)
    const { container } = renderRoutes(routes, { path: '/admin/sittings/9/print/sheets' })
    expect(await screen.findByText('3 sheets ready to print.')).toBeInTheDocument()
    expect(screen.getByText(/Print at 100 % \(actual size\)/)).toBeInTheDocument()
    expect(container.querySelector('style')!.textContent).toBe('@page { size: A4; margin: 0; }')
    expect(screen.getByRole('img', { name: 'Answer sheet, roll 2, Ram Thapa' })).toBeInTheDocument()

    await userEvent.clear(screen.getByLabelText('Blank sheets'))
    await userEvent.type(screen.getByLabelText('Blank sheets'), '2')
    expect(await screen.findByText('5 sheets ready to print.')).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'Blank answer sheet 2' })).toBeInTheDocument()
    await waitFor(() => expect(network.callsTo('GET', '/api/admin/sittings/9/sheets/blank.svg')).toHaveLength(2))
    await userEvent.click(screen.getByRole('button', { name: 'Print answer sheets' }))
    expect(print).toHaveBeenCalled()
  })
})

describe('printing answer booklets', () => {
  it("names each roster learner's pages in order, then the blank booklets' pages, then the spare pages", () => {
    expect(bookletPageNames(roster, 2, 1, 2).map((name) => name.path)).toEqual([
      '1.svg?page=1',
      '1.svg?page=2',
      '2.svg?page=1',
      '2.svg?page=2',
      '3.svg?page=1',
      '3.svg?page=2',
      'blank.svg?serial=1&page=1',
      'blank.svg?serial=1&page=2',
      'extra.svg?serial=1',
      'extra.svg?serial=2',
    ])
  })

  it("draws every learner's pages at A4, blank booklets and spare pages asked for, then prints", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 210 297"/>'
    const network = fakeNetwork({
      'GET /api/admin/sittings/9/': () => ({ body: { ...sitting, booklet_pages: 2 } }),
      'GET /api/admin/sittings/9/roster/': () => ({ body: roster }),
      'GET /api/admin/sittings/9/booklets/1.svg': () => ({ body: svg }),
      'GET /api/admin/sittings/9/booklets/2.svg': () => ({ body: svg }),
      'GET /api/admin/sittings/9/booklets/3.svg': () => ({ body: svg }),
      'GET /api/admin/sittings/9/booklets/blank.svg': () => ({ body: svg }),
      'GET /api/admin/sittings/9/booklets/extra.svg': () => ({ body: svg }),
    })
    const print = vi.fn()
    vi.stubGlobal('print', print)
    const view = renderRoutes(routes, { path: '/admin/sittings/9/print/booklets' })
    expect(await screen.findByText('6 pages ready to print.')).toBeInTheDocument()
    expect(screen.getByText(/2 pages each; the first page explains the question-number bubbles/)).toBeInTheDocument()
    expect(view.container.querySelector('style')!.textContent).toBe('@page { size: A4; margin: 0; }')
    expect(screen.getByRole('img', { name: 'Answer booklet page 2, roll 2, Ram Thapa' })).toBeInTheDocument()
    expect(await axeViolations(view.container)).toEqual([])

    await userEvent.type(screen.getByLabelText('Blank booklets'), '1')
    await userEvent.type(screen.getByLabelText('Spare pages'), '3')
    expect(await screen.findByText('11 pages ready to print.')).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'Blank answer booklet 1, page 2' })).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'Spare page 3' })).toBeInTheDocument()
    await waitFor(() => expect(network.callsTo('GET', '/api/admin/sittings/9/booklets/extra.svg')).toHaveLength(3))
    await userEvent.click(screen.getByRole('button', { name: 'Print answer booklets' }))
    expect(print).toHaveBeenCalled()
  })

  it('reads in Nepali', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 210 297"/>'
    fakeNetwork({
      'GET /api/admin/sittings/9/': () => ({ body: { ...sitting, booklet_pages: 1 } }),
      'GET /api/admin/sittings/9/roster/': () => ({ body: roster }),
      'GET /api/admin/sittings/9/booklets/1.svg': () => ({ body: svg }),
      'GET /api/admin/sittings/9/booklets/2.svg': () => ({ body: svg }),
      'GET /api/admin/sittings/9/booklets/3.svg': () => ({ body: svg }),
    })
    renderRoutes(routes, { path: '/admin/sittings/9/print/booklets', language: 'ne' })
    expect(await screen.findByText('३ पाना छाप्न तयार।')).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'लिखित उत्तरपुस्तिकाको पाना १, रोल २, Ram Thapa' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'लिखित उत्तरपुस्तिका छाप्नुहोस्' })).toBeEnabled()
  })
})
