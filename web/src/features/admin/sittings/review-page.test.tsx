import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { patterns } from '../../../lib/paths'
import { page, polyfillDialog, renderRoutes, signInAs } from '../../../test/page-test-utils'
import { Component as ReviewPage } from './review-page'
import {
  bookletLayout,
  flaggedScan,
  paper,
  recordedPage,
  recordedScan,
  roster,
  sitting,
  unclearPage,
  unknownPage,
} from './sitting-fixtures'
import type { BookletPage, Scan } from './sittings.api'
import { axeViolations } from '../../../test/axe'

vi.setConfig({ testTimeout: 20_000 })

const layout = {
  page: { width_mm: 210, height_mm: 297 },
  markers: [],
  qr: { x_mm: 0, y_mm: 0, size_mm: 20 },
  questions: [1, 2].map((number) => ({
    number,
    options: ['A', 'B', 'C', 'D'].map((label, index) => ({ label, x_mm: 20 + 6 * index, y_mm: 100, r_mm: 2 })),
  })),
  roll: [],
  set: [],
}

interface Sent {
  key: string
  body: unknown
}

/** The network by "METHOD /path?query" (the review asks for scans by status), photos answered as bytes. */
function network(answer: (key: string, body: unknown) => { status?: number; body?: unknown }) {
  const sent: Sent[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url}`
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined
      sent.push({ key, body })
      if (key.endsWith('/image') || key.endsWith('/reader-view'))
        return new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'image/jpeg' } })
      const { status = 200, body: reply } = answer(key, body)
      return new Response(reply === undefined ? null : JSON.stringify(reply), {
        status,
        headers: reply === undefined ? { 'content-length': '0' } : { 'content-type': 'application/json' },
      })
    }),
  )
  return sent
}

beforeEach(() => {
  signInAs({ username: 'boss', is_admin: true })
  polyfillDialog()
  URL.createObjectURL = vi.fn(() => 'blob:photo')
  // The photo's size, as a browser tells it (jsdom decodes no image): 1,500 x 2,000, a phone's upright sheet.
  vi.stubGlobal(
    'createImageBitmap',
    vi.fn(async () => ({ width: 1500, height: 2000, close: () => undefined })),
  )
})
afterEach(() => vi.unstubAllGlobals())

const routes = [page(ReviewPage, patterns.adminSittingReview)]

function answers(flagged: Scan[], recorded: Scan[], pages: BookletPage[] = []) {
  return (key: string): { status?: number; body?: unknown } => {
    if (key === 'GET /api/admin/sittings/9/pages/?status=needs_review')
      return { body: { count: pages.length, results: pages } }
    if (key.startsWith('GET /api/admin/sittings/9/booklet-layout/'))
      return {
        body: key.endsWith('?set=B')
          ? { ...bookletLayout, questions: bookletLayout.questions.slice(0, 1) }
          : bookletLayout,
      }
    if (key === 'GET /api/admin/sittings/9/') return { body: sitting }
    if (key === 'GET /api/admin/sittings/9/roster/') return { body: roster }
    if (key === 'GET /api/admin/sittings/9/scans/?status=needs_review')
      return { body: { count: flagged.length, results: flagged } }
    if (key === 'GET /api/admin/sittings/9/scans/?status=recorded')
      return { body: { count: recorded.length, results: recorded } }
    if (key.startsWith('GET /api/admin/sittings/9/sheet-layout/')) return { body: layout }
    if (key.startsWith('GET /api/admin/sittings/9/paper/')) return { body: { ...paper, set: 'B' } }
    throw new Error(`unexpected ${key}`)
  }
}

describe('reviewing flagged sheets', () => {
  it("downloads the reader's view of a flagged sheet, for support", async () => {
    const sent = network(answers([flaggedScan], []))
    renderRoutes(routes, { path: '/admin/sittings/9/review' })
    await userEvent.click(await screen.findByRole('button', { name: "Reader's view" }))
    await waitFor(() => expect(sent.map((s) => s.key)).toContain(`GET /api/admin/scans/${flaggedScan.id}/reader-view`))
  })

  it("shows the photo beside the flag with the question's marks and choices, and records the sheet once settled", async () => {
    let flagged = [flaggedScan]
    const recorded = [recordedScan]
    const sent = network((key) => {
      if (key === 'PATCH /api/admin/scans/71/') {
        flagged = []
        return {
          body: {
            ...flaggedScan,
            status: 'recorded',
            flags: [],
            score: 3.6,
            answers: { '1': 'C', '2': 'A' },
            attempt_id: 401,
          },
        }
      }
      return answers(flagged, recorded)(key)
    })
    renderRoutes(routes, { path: '/admin/sittings/9/review' })
    const card = await screen.findByRole('article', { name: 'Ram Thapa · Roll 2, set B' })
    expect(await within(card).findByRole('img', { name: 'Photo of the answer sheet, roll 2' })).toHaveAttribute(
      'src',
      'blob:photo',
    )
    const flag = within(card).getByRole('group', { name: /Question 1/ })
    // The flagged row outlined on the photo where its box says, and enlarged in its flag with a row's margin.
    const photo = within(card).getByRole('img', { name: 'Photo of the answer sheet, roll 2' })
    const marks = photo.parentElement!.querySelectorAll<HTMLElement>('.review-mark')
    expect(marks).toHaveLength(1)
    expect(marks[0]).toHaveAttribute('aria-hidden', 'true')
    expect(marks[0]!.style).toMatchObject({ left: '8%', top: '30%', width: '20%', height: '2%' })
    expect(photo).toHaveAttribute('width', '1500')
    expect(photo).toHaveAttribute('height', '2000')
    const crop = within(flag).getByRole('img', { name: "Question 1's row on the photo" })
    expect(crop).toHaveAttribute('src', 'blob:photo')
    expect(crop.style).toMatchObject({ left: '-25%', top: '-466.667%', width: '416.667%', height: '1666.667%' })
    expect(crop.parentElement!.querySelector<HTMLElement>('.review-mark')!.style).toMatchObject({
      left: '8.333%',
      top: '33.333%',
      width: '83.333%',
      height: '33.333%',
    })
    expect(flag).toHaveTextContent('(+2.00 / −0.40)')
    expect(flag).toHaveTextContent('Question 1: more than one bubble filled (A, C).')
    expect(
      within(flag)
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')!.textContent),
    ).toEqual(['A', 'B', 'C', 'D', 'No answer'])
    const settle = within(card).getByRole('button', { name: 'Settle and record' })
    expect(settle).toBeDisabled()
    await userEvent.click(within(flag).getByRole('radio', { name: 'C' }))
    await userEvent.click(settle)
    expect(await screen.findByText('Recorded: Ram Thapa, score 3.60.')).toBeInTheDocument()
    expect(sent.find((each) => each.key === 'PATCH /api/admin/scans/71/')!.body).toEqual({ answers: { '1': 'C' } })
    expect(await screen.findByText('No sheet needs review.')).toBeInTheDocument()
  })

  it('settles a doubtful number grid by typing the number, or by no answer (decision 129)', async () => {
    const gridScan: Scan = {
      ...flaggedScan,
      answers: { '1': 'B', '2': null },
      flags: [
        {
          question: 2,
          kind: 'numeric_unclear',
          marks: ['3/8', '.', '1', '4'],
          box: { x: 0.4, y: 0.3, width: 0.1, height: 0.15, turn: 0 },
        },
      ],
    }
    let flagged = [gridScan]
    const sent = network((key) => {
      if (key === 'PATCH /api/admin/scans/71/') {
        flagged = []
        return { body: { ...gridScan, status: 'recorded', flags: [], score: 5, answers: { '1': 'B', '2': '3.14' } } }
      }
      return answers(flagged, [])(key)
    })
    renderRoutes(routes, { path: '/admin/sittings/9/review' })
    const card = await screen.findByRole('article', { name: 'Ram Thapa · Roll 2, set B' })
    const flag = within(card).getByRole('group', { name: /Question 2/ })
    expect(flag).toHaveTextContent('Question 2: the number grid cannot be read with certainty (3/8, ., 1, 4)')
    expect(await within(flag).findByRole('img', { name: "Question 2's grid on the photo" })).toBeInTheDocument()
    const settle = within(card).getByRole('button', { name: 'Settle and record' })
    expect(settle).toBeDisabled()
    const box = within(flag).getByRole('textbox', { name: 'Number' })
    await userEvent.type(box, '3.14')
    expect(settle).toBeEnabled()
    await userEvent.clear(box)
    expect(settle).toBeDisabled()
    await userEvent.click(within(flag).getByRole('radio', { name: 'No answer' }))
    expect(settle).toBeEnabled()
    await userEvent.type(box, '3.14')
    expect(within(flag).getByRole('radio', { name: 'No answer' })).not.toBeChecked()
    await userEvent.click(settle)
    expect(await screen.findByText('Recorded: Ram Thapa, score 5.00.')).toBeInTheDocument()
    expect(sent.find((each) => each.key === 'PATCH /api/admin/scans/71/')!.body).toEqual({ answers: { '2': '3.14' } })
  })

  it('settles an unreadable roll number by choosing the learner from the roster', async () => {
    const unknown: Scan = {
      ...flaggedScan,
      roll_number: null,
      learner: null,
      flags: [{ question: null, kind: 'roll', marks: [] }],
    }
    const sent = network((key) =>
      key === 'PATCH /api/admin/scans/71/'
        ? { body: { ...flaggedScan, status: 'recorded', flags: [], score: 2 } }
        : answers([unknown], [])(key),
    )
    renderRoutes(routes, { path: '/admin/sittings/9/review' })
    const select = await screen.findByLabelText(
      'Choose the learner: the roll number could not be read, is not on the roster, or does not match the name on the sheet (the roster changed since printing, or a photocopied blank sheet).',
    )
    // A scan read before boxes were kept: the photo without outlines, the flag without a close-up.
    const photo = await screen.findByRole('img', { name: 'Photo of the answer sheet, roll ?' })
    expect(photo.parentElement!.querySelector('.review-mark')).toBeNull()
    expect(screen.queryByRole('img', { name: 'The roll number bubbles on the photo' })).toBeNull()
    await userEvent.selectOptions(select, 'Roll 2: Ram Thapa')
    await userEvent.click(screen.getByRole('button', { name: 'Settle and record' }))
    await waitFor(() =>
      expect(sent.find((each) => each.key === 'PATCH /api/admin/scans/71/')?.body).toEqual({ roll_number: 2 }),
    )
  })

  it('opens a recorded sheet, corrects an answer (re-scored) and deletes a scan', async () => {
    const sent = network((key) => {
      if (key === 'PATCH /api/admin/scans/70/')
        return { body: { ...recordedScan, answers: { '1': 'B', '2': 'D' }, score: 1.6 } }
      if (key === 'DELETE /api/admin/scans/70/') return { status: 204 }
      return answers([], [recordedScan])(key)
    })
    renderRoutes(routes, { path: '/admin/sittings/9/review' })
    await userEvent.click(await screen.findByRole('button', { name: 'Open the sheet of roll 1' }))
    const answer = await screen.findByLabelText('Answer to question 2')
    await waitFor(() => expect(within(answer).getAllByRole('option')).toHaveLength(5))
    await userEvent.selectOptions(answer, 'D')
    await userEvent.click(screen.getByRole('button', { name: 'Save corrections' }))
    expect(await screen.findByText('Corrections saved; new score 1.60.')).toBeInTheDocument()
    expect(sent.find((each) => each.key === 'PATCH /api/admin/scans/70/')!.body).toEqual({ answers: { '2': 'D' } })

    await userEvent.click(screen.getByRole('button', { name: 'Delete scan' }))
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Scan deleted.')).toBeInTheDocument()
    expect(sent.some((each) => each.key === 'DELETE /api/admin/scans/70/')).toBe(true)
  })
})

describe('reviewing flagged booklet pages', () => {
  it("shows the page with its question bubbles outlined beside the flagged sheets, and its learner's set's numbers", async () => {
    network(answers([flaggedScan], [], [unclearPage]))
    const view = renderRoutes(routes, { path: '/admin/sittings/9/review' })
    expect(await screen.findByRole('heading', { name: 'Sheets to review' })).toBeInTheDocument()
    expect(await screen.findByRole('heading', { name: 'Booklet pages to review' })).toBeInTheDocument()
    expect(await screen.findByRole('article', { name: 'Ram Thapa · Roll 2, set B' })).toBeInTheDocument()
    const card = await screen.findByRole('article', { name: 'Ram Thapa · Roll 2 · page 1' })
    const photo = await within(card).findByRole('img', { name: 'Photo of the answer booklet page, roll 2, 1' })
    // The bubble row outlined where the flag's box says.
    const marks = photo.parentElement!.querySelectorAll<HTMLElement>('.review-mark')
    expect(marks).toHaveLength(1)
    expect(marks[0]!.style).toMatchObject({ left: '8%', top: '15%', width: '40%', height: '3%' })
    expect(within(card).getByRole('img', { name: 'The question-number bubbles on the photo' })).toBeInTheDocument()
    expect(card).toHaveTextContent('The question-number bubbles are unclear (4): choose the question(s)')
    // Ram sits set B, whose written question is number 3 alone (his set's layout): only it is offered.
    const questions = within(card).getByRole('group', { name: /Questions this page answers/ })
    await waitFor(() => expect(within(questions).getAllByRole('checkbox')).toHaveLength(1))
    // The 4 half read is not his to answer: nothing is chosen until the person ticks 3.
    const settle = within(card).getByRole('button', { name: 'Settle and record' })
    expect(settle).toBeDisabled()
    await userEvent.click(within(questions).getByRole('checkbox', { name: '3' }))
    expect(settle).toBeEnabled()
    view.unmount()
  })

  it('settles the questions of a page on the written numbers of its learner, and says what was recorded', async () => {
    let pages = [{ ...unclearPage, roll_number: 1, learner: recordedPage.learner }]
    const sent = network((key) => {
      if (key === 'PATCH /api/admin/pages/81/') {
        pages = []
        return { body: { ...recordedPage, id: 81, page_number: 1, questions: [3, 4] } }
      }
      return answers([], [], pages)(key)
    })
    const view = renderRoutes(routes, { path: '/admin/sittings/9/review' })
    const card = await screen.findByRole('article', { name: 'Sita Sharma · Roll 1 · page 1' })
    const questions = within(card).getByRole('group', { name: /Questions this page answers/ })
    await waitFor(() => expect(within(questions).getAllByRole('checkbox')).toHaveLength(2))
    // The bubble the reader half saw is ticked and marked; the person adds the other.
    expect(within(questions).getByRole('checkbox', { name: '4' })).toBeChecked()
    expect(within(questions).getByRole('checkbox', { name: '3' })).not.toBeChecked()
    expect(await axeViolations(card)).toEqual([])
    await userEvent.click(within(questions).getByRole('checkbox', { name: '3' }))
    await userEvent.click(within(card).getByRole('button', { name: 'Settle and record' }))
    expect(await screen.findByText('Recorded: Sita Sharma, Roll 1 · page 1 · questions 3, 4.')).toBeInTheDocument()
    expect(sent.find((each) => each.key === 'PATCH /api/admin/pages/81/')!.body).toEqual({ questions: [3, 4] })
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Booklet pages to review' })).toBeNull())
    view.unmount()
  })

  it('corrects the roll number of a page whose roll was not read, then its questions; or discards a page', async () => {
    const sent = network((key) => {
      if (key === 'PATCH /api/admin/pages/82/')
        return { body: { ...unknownPage, status: 'recorded', roll_number: 3, flags: [], questions: [4] } }
      if (key === 'PATCH /api/admin/pages/81/') return { body: { ...unclearPage, status: 'discarded' } }
      return answers([], [], [unknownPage, unclearPage])(key)
    })
    renderRoutes(routes, { path: '/admin/sittings/9/review' })
    const card = await screen.findByRole('article', { name: 'Unknown learner · Roll ? · spare page' })
    const settle = within(card).getByRole('button', { name: 'Settle and record' })
    expect(settle).toBeDisabled()
    await userEvent.selectOptions(within(card).getByLabelText('Whose page is this?'), 'Roll 3: Gita Rai')
    const questions = within(card).getByRole('group', { name: /Questions this page answers/ })
    await userEvent.click(await within(questions).findByRole('checkbox', { name: '4' }))
    await userEvent.click(settle)
    await waitFor(() =>
      expect(sent.find((each) => each.key === 'PATCH /api/admin/pages/82/')?.body).toEqual({
        roll_number: 3,
        questions: [4],
      }),
    )

    const other = screen.getByRole('article', { name: 'Ram Thapa · Roll 2 · page 1' })
    await userEvent.click(within(other).getByRole('button', { name: 'Discard the page' }))
    expect(await screen.findByText('The page is discarded.')).toBeInTheDocument()
    expect(sent.find((each) => each.key === 'PATCH /api/admin/pages/81/')!.body).toEqual({ discard: true })
  })

  it('reads in Nepali', async () => {
    network(answers([], [], [unclearPage]))
    const view = renderRoutes(routes, { path: '/admin/sittings/9/review', language: 'ne' })
    const card = await screen.findByRole('article', { name: 'Ram Thapa · रोल २ · पाना १' })
    expect(screen.getByRole('heading', { name: 'जाँच्नुपर्ने पुस्तिकाका पाना' })).toBeInTheDocument()
    expect(within(card).getByRole('button', { name: 'पाना हटाउनुहोस्' })).toBeInTheDocument()
    expect(card).toHaveTextContent('प्रश्न नम्बरका गोला अस्पष्ट छन् (४)')
    view.unmount()
  })
})
