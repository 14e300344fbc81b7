import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { patterns } from '../../../lib/paths'
import { fakeNetwork, page, renderRoutes, signInAs } from '../../../test/page-test-utils'
import { paper, roster, sitting } from './sitting-fixtures'
import { Component as PrintPaperPage } from './print-paper-page'
import { Component as PrintSheetsPage } from './print-sheets-page'

vi.setConfig({ testTimeout: 20_000 })

beforeEach(() => signInAs({ username: 'boss', is_admin: true }))
afterEach(() => vi.unstubAllGlobals())

const routes = [page(PrintPaperPage, patterns.adminSittingPaper), page(PrintSheetsPage, patterns.adminSittingSheets)]

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
