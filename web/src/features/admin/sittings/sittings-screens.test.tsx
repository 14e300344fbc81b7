import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { patterns } from '../../../lib/paths'
import { fakeNetwork, page, polyfillDialog, renderRoutes, signInAs } from '../../../test/page-test-utils'
import { messagesByLine, parseRosterLines, toRosterInput } from './roster-lines'
import { axeViolations } from '../../../test/axe'
import { bookletLayout, unclearPage, quiz, recordedScan, flaggedScan, roster, sitting } from './sitting-fixtures'
import { Component as SittingPage } from './sitting-page'
import { Component as SittingsPage } from './sittings-page'

vi.setConfig({ testTimeout: 20_000 })

beforeEach(() => {
  signInAs({ username: 'boss', is_admin: true })
  polyfillDialog()
})
afterEach(() => vi.unstubAllGlobals())

const sittingRoutes = [page(SittingsPage, patterns.adminQuizSittings), page(SittingPage, patterns.adminSitting)]

describe("a quiz's paper sittings", () => {
  it('lists the sittings and creates one with its date, title, sets and option letters', async () => {
    const network = fakeNetwork({
      'GET /api/admin/quizzes/5/': () => ({ body: quiz }),
      'GET /api/admin/quizzes/5/sittings/': () => ({ body: { count: 1, results: [sitting] } }),
      'POST /api/admin/quizzes/5/sittings/': () => ({ status: 201, body: { ...sitting, id: 10 } }),
    })
    renderRoutes(sittingRoutes, { path: '/admin/quiz/5/sittings' })
    expect(await screen.findByRole('link', { name: 'Mock 1, Putalisadak hall' })).toHaveAttribute(
      'href',
      '/admin/sittings/9',
    )
    expect(screen.getByText('3 learners')).toBeInTheDocument()
    expect(screen.getByText('1 to review')).toBeInTheDocument()

    await userEvent.type(screen.getByLabelText(/Date and time/), '2026-12-01T10:00')
    await userEvent.type(screen.getByLabelText('Title (English, optional)'), 'Mock 2')
    await userEvent.selectOptions(screen.getByLabelText('Sets'), '4')
    await userEvent.selectOptions(screen.getByLabelText('Option letters'), 'devanagari')
    await userEvent.selectOptions(screen.getByLabelText(/Answer booklet pages a learner/), '6')
    await userEvent.click(screen.getByRole('button', { name: 'Create sitting' }))
    expect(await screen.findByText('Sitting created. Open it to add its roster.')).toBeInTheDocument()
    const [sent] = network.callsTo('POST', '/api/admin/quizzes/5/sittings/')
    expect(sent!.body).toEqual({
      held_at: new Date(2026, 11, 1, 10, 0).toISOString(),
      title: { en: 'Mock 2', ne: '' },
      sets: 4,
      option_labels: 'devanagari',
      booklet_pages: 6,
    })
  })

  it("shows the server's refusal of a paper it cannot print", async () => {
    fakeNetwork({
      'GET /api/admin/quizzes/5/': () => ({ body: quiz }),
      'GET /api/admin/quizzes/5/sittings/': () => ({ body: { count: 0, results: [] } }),
      'POST /api/admin/quizzes/5/sittings/': () => ({
        status: 409,
        body: {
          code: 'paper_not_printable',
          detail: 'A sheet prints at most 5 options a question; question 7 of the paper has more.',
        },
      }),
    })
    renderRoutes(sittingRoutes, { path: '/admin/quiz/5/sittings', language: 'ne' })
    expect(await screen.findByText('अहिलेसम्म कुनै कागजी परीक्षा छैन। तल एउटा बनाउनुहोस्।')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText(/मिति र समय/), '2026-12-01T10:00')
    await userEvent.click(screen.getByRole('button', { name: 'कागजी परीक्षा बनाउनुहोस्' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('question 7 of the paper has more')
  })
})

const sittingNetwork = (overrides: Parameters<typeof fakeNetwork>[0] = {}) =>
  fakeNetwork({
    'GET /api/admin/sittings/9/': () => ({ body: sitting }),
    'GET /api/admin/sittings/9/roster/': () => ({ body: roster }),
    'GET /api/admin/sittings/9/scans/': () => ({ body: { count: 2, results: [recordedScan, flaggedScan] } }),
    'GET /api/admin/quizzes/5/sittings/': () => ({ body: { count: 1, results: [sitting] } }),
    'GET /api/admin/sittings/9/booklet-layout/': () => ({
      status: 409,
      body: { code: 'conflict', detail: "This sitting's paper has no written questions: it has no answer booklets." },
    }),
    ...overrides,
  })

describe('a sitting', () => {
  it('shows its actions, the scan counts and who is missing', async () => {
    const network = sittingNetwork()
    renderRoutes(sittingRoutes, { path: '/admin/sittings/9' })
    expect(await screen.findByRole('heading', { name: 'Sitting: Mock 1, Putalisadak hall' })).toBeInTheDocument()
    const actions = screen.getByRole('navigation', { name: 'Sitting actions' })
    expect(within(actions).getByRole('link', { name: 'Print question papers' })).toHaveAttribute(
      'href',
      '/admin/sittings/9/print/paper',
    )
    expect(within(actions).getByText('Print at 100 % (actual size), not "fit to page".')).toBeInTheDocument()
    expect(within(actions).getByRole('link', { name: 'Scan sheets' })).toHaveAttribute('href', '/admin/sittings/9/scan')
    expect(screen.getByText(/1 of 3 recorded\./)).toBeInTheDocument()
    expect(await screen.findByText('1 learner not scanned yet')).toBeInTheDocument()
    expect(screen.getByText('Roll 3: Gita Rai')).toBeInTheDocument()
    // A paper without written questions has no answer booklets.
    await waitFor(() => expect(network.callsTo('GET', '/api/admin/sittings/9/booklet-layout/')).toHaveLength(1))
    expect(within(actions).queryByRole('link', { name: 'Print answer booklets' })).not.toBeInTheDocument()
  })

  it('offers answer booklets beside the answer sheets when the paper has written questions, in Nepali too', async () => {
    sittingNetwork({
      'GET /api/admin/sittings/9/': () => ({ body: { ...sitting, booklet_pages: 6 } }),
      'GET /api/admin/sittings/9/booklet-layout/': () => ({ body: bookletLayout }),
      'GET /api/admin/sittings/9/pages/': () => ({ body: { count: 1, results: [unclearPage] } }),
    })
    const view = renderRoutes(sittingRoutes, { path: '/admin/sittings/9' })
    const actions = await screen.findByRole('navigation', { name: 'Sitting actions' })
    expect(await within(actions).findByRole('link', { name: 'Print answer booklets' })).toHaveAttribute(
      'href',
      '/admin/sittings/9/print/booklets',
    )
    expect(within(actions).getByText('6 pages a learner, for the written questions.')).toBeInTheDocument()
    // One flagged sheet and one flagged booklet page.
    expect(await within(actions).findByRole('link', { name: 'Review (2)' })).toBeInTheDocument()
    expect(screen.getByText('0 answer booklet pages recorded. 1 page needs review.')).toBeInTheDocument()
    // The actions alone: the whole screen has a landmark-unique finding of the roster's own (left alone here).
    expect(await axeViolations(actions)).toEqual([])
    view.unmount()

    renderRoutes(sittingRoutes, { path: '/admin/sittings/9', language: 'ne' })
    expect(await screen.findByRole('link', { name: 'लिखित उत्तरपुस्तिका छाप्नुहोस्' })).toBeInTheDocument()
    expect(screen.getByText('लिखित प्रश्नका लागि प्रति विद्यार्थी ६ पाना।')).toBeInTheDocument()
  })

  it("says why a paper with more written questions than a page's bubble row holds prints no booklets", async () => {
    sittingNetwork({
      'GET /api/admin/sittings/9/booklet-layout/': () => ({
        status: 409,
        body: {
          code: 'paper_not_printable',
          detail: "A booklet page's bubble row holds at most 38 written questions; this paper has 40.",
        },
      }),
    })
    renderRoutes(sittingRoutes, { path: '/admin/sittings/9' })
    expect(
      await screen.findByText("A booklet page's bubble row holds at most 38 written questions; this paper has 40."),
    ).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Print answer booklets' })).not.toBeInTheDocument()
  })

  it("saves a pasted roster, and shows the server's refusal at the line it names", async () => {
    let refuse = true
    const network = sittingNetwork({
      'GET /api/admin/sittings/9/roster/': () => ({ body: { roster: [] } }),
      'GET /api/admin/sittings/9/scans/': () => ({ body: { count: 0, results: [] } }),
      'PUT /api/admin/sittings/9/roster/': () =>
        refuse
          ? {
              status: 400,
              body: {
                code: 'validation_error',
                detail: 'Invalid input.',
                errors: { 'learners.1.username': ['No learner has the username "hari".'] },
              },
            }
          : { body: roster },
    })
    renderRoutes(sittingRoutes, { path: '/admin/sittings/9' })
    await userEvent.type(await screen.findByLabelText('Paste learners'), 'sita{Enter}hari, 7, B{Enter}98 4100 0001')
    await userEvent.click(screen.getByRole('button', { name: 'Add to roster' }))
    expect(screen.getByLabelText('Username or phone, line 2')).toHaveValue('hari')
    expect(screen.getByLabelText('Roll number, line 2')).toHaveValue('7')
    expect(screen.getByLabelText('Set, line 2')).toHaveValue('B')
    await userEvent.click(screen.getByRole('button', { name: 'Save roster' }))
    const refused = await screen.findByText('No learner has the username "hari".')
    expect(screen.getByLabelText('Username or phone, line 2')).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByLabelText('Username or phone, line 2')).toHaveAccessibleDescription(refused.textContent!)
    expect(network.callsTo('PUT', '/api/admin/sittings/9/roster/')[0]!.body).toEqual({
      learners: [{ username: 'sita' }, { username: 'hari', roll_number: 7, set: 'B' }, { phone_number: '9841000001' }],
    })

    refuse = false
    await userEvent.clear(screen.getByLabelText('Username or phone, line 2'))
    await userEvent.type(screen.getByLabelText('Username or phone, line 2'), 'ram')
    await userEvent.click(screen.getByRole('button', { name: 'Save roster' }))
    expect(
      await screen.findByText('Roster saved. Blank roll numbers and sets were given in order.'),
    ).toBeInTheDocument()
    expect(screen.getByText('Gita Rai')).toBeInTheDocument()
    expect(screen.getByLabelText('Roll number, line 3')).toHaveValue('3')
  })

  it('adds a learner chosen from the Learners list', async () => {
    sittingNetwork({
      'GET /api/admin/users/': () => ({
        body: {
          count: 1,
          results: [{ id: 40, username: 'maya', full_name: 'Maya Gurung', phone_number: '9841', is_admin: false }],
        },
      }),
    })
    renderRoutes(sittingRoutes, { path: '/admin/sittings/9' })
    await userEvent.click(await screen.findByText('Choose from Learners'))
    await userEvent.type(screen.getByLabelText('Search learners'), 'maya')
    await userEvent.click(screen.getByRole('button', { name: 'Search' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Add Maya Gurung to the roster' }))
    expect(screen.getByLabelText('Username or phone, line 4')).toHaveValue('maya')
    expect(screen.getByLabelText('Roll number, line 4')).toHaveValue('')
  })

  it('says clearly that a sitting with recorded sheets cannot be deleted', async () => {
    sittingNetwork({
      'DELETE /api/admin/sittings/9/': () => ({
        status: 409,
        body: { code: 'conflict', detail: 'This sitting has recorded answer sheets.' },
      }),
    })
    renderRoutes(sittingRoutes, { path: '/admin/sittings/9' })
    await userEvent.click(await screen.findByRole('button', { name: 'Delete sitting' }))
    const dialog = screen.getByRole('dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This sitting has recorded answer sheets, so it cannot be deleted.',
    )
  })

  it('edits the date and title, and deletes a sitting with no recorded sheet', async () => {
    const network = sittingNetwork({
      'PATCH /api/admin/sittings/9/': () => ({ body: { ...sitting, title: { en: 'Mock 1b', ne: '' } } }),
      'DELETE /api/admin/sittings/9/': () => ({ status: 204 }),
      'GET /api/admin/quizzes/5/': () => ({ body: quiz }),
    })
    const { router } = renderRoutes(sittingRoutes, { path: '/admin/sittings/9' })
    await userEvent.click(await screen.findByRole('button', { name: 'Edit date and title' }))
    const title = screen.getByLabelText('Title (English, optional)')
    await userEvent.clear(title)
    await userEvent.type(title, 'Mock 1b')
    expect(screen.getByLabelText(/Answer booklet pages a learner/)).toHaveValue('4')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Sitting saved.')).toBeInTheDocument()
    expect(network.callsTo('PATCH', '/api/admin/sittings/9/')[0]!.body).toEqual({
      held_at: sitting.held_at,
      title: { en: 'Mock 1b', ne: 'नमुना १, पुतलीसडक हल' },
      booklet_pages: 4,
    })
    await userEvent.click(screen.getByRole('button', { name: 'Delete sitting' }))
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/quiz/5/sittings'))
  })
})

describe('roster lines', () => {
  it('reads a username or phone number a line, with an optional roll number and set', () => {
    const rows = parseRosterLines('  sita \n\n+977 9841000001\tx\tc\nram;12;d\n2081001\n984-100-0002\n', [
      'A',
      'B',
      'C',
    ])
    expect(rows.map(({ who, roll, set }) => ({ who, roll, set }))).toEqual([
      { who: 'sita', roll: '', set: '' },
      { who: '+977 9841000001', roll: '', set: 'C' },
      { who: 'ram', roll: '12', set: '' },
      { who: '2081001', roll: '', set: '' },
      { who: '984-100-0002', roll: '', set: '' },
    ])
    // A phone number's ten digits however it is written; a student number of seven digits is a username.
    expect(toRosterInput(rows)).toEqual({
      learners: [
        { username: 'sita' },
        { phone_number: '9841000001', set: 'C' },
        { username: 'ram', roll_number: 12 },
        { username: '2081001' },
        { phone_number: '9841000002' },
      ],
    })
  })

  it("files the server's messages by the line they name", () => {
    expect(
      messagesByLine({ 'learners.2.roll_number': ['Roll number 4 is given twice.'], learners: ['Too many.'] }),
    ).toEqual({ lines: new Map([[2, ['Roll number 4 is given twice.']]]), other: ['Too many.'] })
  })
})
