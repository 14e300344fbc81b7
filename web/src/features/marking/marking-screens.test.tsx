import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { Outlet } from 'react-router'
import { axeViolations } from '../../test/axe'
import { fakeNetwork, page, polyfillDialog, renderRoutes } from '../../test/page-test-utils'
import { RequireAdmin, RequireMarker } from '../../session/guards'
import { sessionStore } from '../../session/session-store'
import type { MarkingAnswer, MarkingOverview } from './marking.api'
import { Component as MarkingPage } from './marking-page'
import { Component as MarkingQuizPage } from './marking-quiz-page'
import { Component as MarkingHomePage } from './marking-home-page'

const pageUrls = (id: number) => ({
  url: `/api/written-pages/${id}/?signature=s`,
  phone_url: `/api/written-pages/${id}/?signature=s&size=phone`,
})

const rubric: MarkingAnswer['rubric'] = {
  question_id: 5,
  marks: 10,
  scoring: 'positive',
  floor: 0,
  ceiling: 10,
  groups: [],
  items: [
    { id: 51, group_id: null, points: 3, title: { en: 'States the law', ne: 'कानुन उल्लेख' }, explanation: null },
    { id: 52, group_id: null, points: 4, title: { en: 'Gives an example', ne: 'उदाहरण' }, explanation: null },
    { id: 53, group_id: null, points: 2, title: { en: 'Concludes', ne: 'निष्कर्ष' }, explanation: null },
    {
      id: 54,
      group_id: null,
      points: -1,
      title: { en: 'Over the word limit', ne: 'शब्द सीमा नाघेको' },
      explanation: null,
    },
  ],
  revision: 4,
}
const answer = (id: number): MarkingAnswer => ({
  answer_id: id,
  anonymous_code: `W-${id}7K`,
  text: 'The constitution of Nepal came into force in 2015.',
  word_count: 9,
  pages: [
    { id: 900 + id, ...pageUrls(900 + id), width: 1600, height: 2200 },
    { id: 950 + id, ...pageUrls(950 + id), width: 1600, height: 2200 },
  ],
  rubric,
  evaluation: null,
})
const overview: MarkingOverview = {
  questions: [
    { question_id: 5, number: 3, submitted: 12, marked: 4, released: 1, claimed: 2 },
    { question_id: 6, number: 4, submitted: 3, marked: 0, released: 3, claimed: 0 },
  ],
}

function signIn(claims: { is_admin: boolean; is_marker?: boolean }) {
  const payload = btoa(JSON.stringify({ username: 'gita', exp: Math.floor(Date.now() / 1000) + 3600, ...claims }))
  sessionStore.setTokens({ access: `e30.${payload.replace(/=+$/, '')}.sig`, refresh: 'r' })
}

const markingRoutes = [page(MarkingPage, '/marking/quiz/:quizId/question/:questionId')]

beforeAll(polyfillDialog)
afterEach(() => vi.unstubAllGlobals())

describe('the marking screen', () => {
  it('marks by keys alone: items, a stamp, Enter saves with the annotations and opens the next answer', async () => {
    signIn({ is_admin: false, is_marker: true })
    const queue = [answer(1), answer(2)]
    const network = fakeNetwork({
      'POST /api/admin/quizzes/7/marking/5/next/': () => {
        const next = queue.shift()
        return next ? { body: next } : { status: 204 }
      },
      'PUT /api/admin/written-answers/1/evaluation/': () => ({ body: { score: 7 } }),
      'PUT /api/admin/written-answers/2/evaluation/': () => ({ body: { score: 0 } }),
    })
    const user = userEvent.setup()
    renderRoutes(markingRoutes, { path: '/marking/quiz/7/question/5' })
    expect(await screen.findByRole('heading', { name: 'Answer W-17K' })).toBeInTheDocument()
    // Anonymous: only the code, and the typed text in its column.
    expect(screen.getByText(/came into force in 2015/)).toBeInTheDocument()
    const total = screen.getByText('Total 0 of 10')
    expect(total).toHaveAttribute('aria-live', 'polite')

    await user.keyboard('1')
    await user.keyboard('2')
    expect(screen.getByText('Total 7 of 10')).toBeInTheDocument()
    await user.keyboard('4')
    expect(screen.getByText('Total 6 of 10')).toBeInTheDocument()
    await user.keyboard('4')
    expect(screen.getByRole('button', { name: /States the law/ })).toHaveAttribute('aria-pressed', 'true')
    expect(screen.getByRole('button', { name: /Over the word limit/ })).toHaveAttribute('aria-pressed', 'false')
    await user.keyboard('t')
    await user.keyboard('{Enter}')

    expect(await screen.findByRole('heading', { name: 'Answer W-27K' })).toBeInTheDocument()
    const [saved] = network.callsTo('PUT', '/api/admin/written-answers/1/evaluation/')
    const body = saved!.body as {
      items: number[]
      annotations: { page_id: number; doc: { v: number; marks: { k: string }[] } }[]
      rubric_revision: number
      comment: unknown
    }
    expect(body.items.sort()).toEqual([51, 52])
    expect(body.rubric_revision).toBe(4)
    expect(body.comment).toBeNull()
    expect(body.annotations.map((entry) => entry.page_id)).toEqual([901, 951])
    expect(body.annotations[0]!.doc.marks.map((mark) => mark.k)).toEqual(['item', 'item', 'stamp'])
    expect(body.annotations[1]!.doc.marks).toEqual([])
    // The next answer starts clean.
    expect(screen.getByText('Total 0 of 10')).toBeInTheDocument()

    await user.keyboard('{Enter}')
    expect(await screen.findByRole('heading', { name: 'All marked' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to the written questions' })).toHaveAttribute(
      'href',
      '/marking/quiz/7',
    )
  })

  it('keeps typing in the comment from marking, and sends the comment', async () => {
    signIn({ is_admin: true })
    const network = fakeNetwork({
      'POST /api/admin/quizzes/7/marking/5/next/': () => ({ body: answer(1) }),
      'PUT /api/admin/written-answers/1/evaluation/': () => ({ body: { score: 3 } }),
    })
    const user = userEvent.setup()
    renderRoutes(markingRoutes, { path: '/marking/quiz/7/question/5' })
    await user.click(await screen.findByLabelText('Comment to the learner'))
    await user.keyboard('Read article 2{Enter}then 3')
    expect(screen.getByText('Total 0 of 10')).toBeInTheDocument()
    expect(network.callsTo('PUT', '/api/admin/written-answers/1/evaluation/')).toHaveLength(0)
    await user.keyboard('{Control>}{Enter}{/Control}')
    await waitFor(() => expect(network.callsTo('PUT', '/api/admin/written-answers/1/evaluation/')).toHaveLength(1))
    expect(network.callsTo('PUT', '/api/admin/written-answers/1/evaluation/')[0]!.body).toMatchObject({
      comment: { en: 'Read article 2\nthen 3', ne: 'Read article 2\nthen 3' },
    })
  })

  it.each([
    ['claimed_by_other', /Another marker has this answer now/, 'Get the next answer'],
    ['rubric_changed', /The rubric changed while you were marking/, 'Load again'],
  ])('says so plainly when the server refuses with %s', async (code, message, action) => {
    signIn({ is_admin: true })
    let served = 0
    fakeNetwork({
      'POST /api/admin/quizzes/7/marking/5/next/': () => {
        served += 1
        return { body: answer(served) }
      },
      'PUT /api/admin/written-answers/1/evaluation/': () => ({ status: 409, body: { code, detail: 'refused' } }),
    })
    const user = userEvent.setup()
    renderRoutes(markingRoutes, { path: '/marking/quiz/7/question/5' })
    await screen.findByRole('heading', { name: 'Answer W-17K' })
    await user.keyboard('1{Enter}')
    expect(await screen.findByText(message)).toBeInTheDocument()
    // Nothing is lost on screen: the item is still applied.
    expect(screen.getByText('Total 3 of 10')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: action }))
    expect(await screen.findByRole('heading', { name: 'Answer W-27K' })).toBeInTheDocument()
  })

  it('draws a pen stroke and a clicked stamp on the page, and moves between pages', async () => {
    signIn({ is_admin: true })
    const network = fakeNetwork({
      'POST /api/admin/quizzes/7/marking/5/next/': () => ({ body: answer(1) }),
      'PUT /api/admin/written-answers/1/evaluation/': () => ({ body: { score: 0 } }),
    })
    const user = userEvent.setup()
    const { container } = renderRoutes(markingRoutes, { path: '/marking/quiz/7/question/5' })
    await screen.findByRole('heading', { name: 'Answer W-17K' })
    const svg = () => container.querySelector('.page-marker svg')!
    // jsdom lays nothing out: the sheet is given the size a browser would.
    const sized = () =>
      vi.spyOn(svg(), 'getBoundingClientRect').mockReturnValue({
        left: 0,
        top: 0,
        width: 800,
        height: 1100,
        right: 800,
        bottom: 1100,
        x: 0,
        y: 0,
        toJSON: () => ({}),
      })
    sized()
    await user.click(screen.getByRole('button', { name: 'Pen' }))
    await user.pointer([
      { keys: '[MouseLeft>]', target: svg(), coords: { clientX: 80, clientY: 110 } },
      { target: svg(), coords: { clientX: 200, clientY: 220 } },
      { target: svg(), coords: { clientX: 400, clientY: 330 } },
      { keys: '[/MouseLeft]', target: svg(), coords: { clientX: 400, clientY: 330 } },
    ])
    await user.click(screen.getByRole('button', { name: /Cross/ }))
    await user.pointer({ keys: '[MouseLeft]', target: svg(), coords: { clientX: 400, clientY: 550 } })
    await user.click(screen.getByRole('button', { name: 'Next page' }))
    expect(screen.getByText('Page 2 of 2', { selector: 'span' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: /Save and next/ }))
    await waitFor(() => expect(network.callsTo('PUT', '/api/admin/written-answers/1/evaluation/')).toHaveLength(1))
    const body = network.callsTo('PUT', '/api/admin/written-answers/1/evaluation/')[0]!.body as {
      annotations: { doc: { marks: Record<string, unknown>[] } }[]
    }
    const [ink, cross] = body.annotations[0]!.doc.marks
    expect(ink).toMatchObject({
      k: 'ink',
      points: [
        [1000, 1000],
        [2500, 2000],
        [5000, 3000],
      ],
      color: '#d00000',
    })
    expect(cross).toEqual({ k: 'stamp', code: 'cross', x: 5000, y: 5000 })
  })

  it('has no axe violations with an answer open, in English and Nepali', async () => {
    for (const language of ['en', 'ne'] as const) {
      signIn({ is_admin: true })
      fakeNetwork({ 'POST /api/admin/quizzes/7/marking/5/next/': () => ({ body: answer(1) }) })
      const view = renderRoutes(markingRoutes, { path: '/marking/quiz/7/question/5', language })
      // The code is an identifier: its digits stay as written in Nepali too.
      await screen.findByRole('heading', { name: language === 'en' ? 'Answer W-17K' : 'उत्तर W-17K' })
      expect(await axeViolations(view.container)).toEqual([])
      view.unmount()
    }
  })
})

describe('the marking overview', () => {
  it('lists counts per written question, links to marking and releases after a check', async () => {
    signIn({ is_admin: false, is_marker: true })
    const network = fakeNetwork({
      'GET /api/admin/quizzes/7/marking/': () => ({ body: overview }),
      'GET /api/admin/regrades/': () => ({ body: { count: 0, page_size: 50, results: [] } }),
      'POST /api/admin/quizzes/7/marking/release/': () => ({ body: { released: 3 } }),
    })
    const user = userEvent.setup()
    const view = renderRoutes([page(MarkingQuizPage, '/marking/quiz/:quizId')], { path: '/marking/quiz/7' })
    const row = (await screen.findByRole('rowheader', { name: 'Question 3' })).closest('tr')!
    // The regrade queue below loads on its own; the checks wait for it so that nothing updates after the test.
    expect(await screen.findByText('No regrade request is waiting.')).toBeInTheDocument()
    expect([...row.querySelectorAll('td.admin-num')].map((cell) => cell.textContent)).toEqual(['12', '4', '1', '2'])
    expect(within(row).getByRole('link', { name: 'Mark question 3' })).toHaveAttribute(
      'href',
      '/marking/quiz/7/question/5',
    )
    expect(screen.getByText('4 marked answers not yet released')).toBeInTheDocument()
    expect(await axeViolations(view.container)).toEqual([])
    await user.click(screen.getByRole('button', { name: 'Release marks' }))
    const dialog = screen.getByRole('dialog', { name: 'Release marks?' })
    expect(network.callsTo('POST', '/api/admin/quizzes/7/marking/release/')).toHaveLength(0)
    await user.click(within(dialog).getByRole('button', { name: 'Release' }))
    expect(await screen.findByText('3 answers released.')).toBeInTheDocument()
    expect(network.callsTo('POST', '/api/admin/quizzes/7/marking/release/')).toHaveLength(1)
  })

  it("reads the counts in API.md's words: marked is not yet released, and the statuses do not overlap", async () => {
    signIn({ is_admin: true })
    // Question 3 was released in full; question 4 had 3 answers released, then one more marked.
    let questions: MarkingOverview['questions'] = [
      { question_id: 5, number: 3, submitted: 5, marked: 0, released: 5, claimed: 0 },
      { question_id: 6, number: 4, submitted: 6, marked: 1, released: 3, claimed: 0 },
    ]
    const network = fakeNetwork({
      'GET /api/admin/quizzes/7/marking/': () => ({ body: { questions } }),
      'GET /api/admin/regrades/': () => ({ body: { count: 0, page_size: 50, results: [] } }),
      'POST /api/admin/quizzes/7/marking/release/': () => {
        questions = questions.map((question) => ({
          ...question,
          marked: 0,
          released: question.released + question.marked,
        }))
        return { body: { released: 1 } }
      },
    })
    const user = userEvent.setup()
    renderRoutes([page(MarkingQuizPage, '/marking/quiz/:quizId')], { path: '/marking/quiz/7' })
    expect(await screen.findByText('No regrade request is waiting.')).toBeInTheDocument()
    const markLink = async (number: number) =>
      within((await screen.findByRole('rowheader', { name: `Question ${number}` })).closest('tr')!).getByRole('link', {
        name: `Mark question ${number}`,
      })
    // Nothing of question 3 waits for a marker; question 4 has 2 answers not yet marked.
    expect(await markLink(3)).not.toHaveClass('btn--primary')
    expect(await markLink(4)).toHaveClass('btn--primary')
    // The answer marked after the release is releasable.
    expect(screen.getByText('1 marked answer not yet released')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Release marks' }))
    await user.click(
      within(screen.getByRole('dialog', { name: 'Release marks?' })).getByRole('button', { name: 'Release' }),
    )
    expect(await screen.findByText('1 answer released.')).toBeInTheDocument()
    expect(network.callsTo('POST', '/api/admin/quizzes/7/marking/release/')).toHaveLength(1)
    expect(await screen.findByText('0 marked answers not yet released')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Release marks' })).toBeDisabled()
  })

  it('reads in Nepali without axe violations', async () => {
    signIn({ is_admin: true })
    fakeNetwork({
      'GET /api/admin/quizzes/7/marking/': () => ({ body: overview }),
      'GET /api/admin/regrades/': () => ({ body: { count: 0, page_size: 50, results: [] } }),
    })
    const view = renderRoutes([page(MarkingQuizPage, '/marking/quiz/:quizId')], {
      path: '/marking/quiz/7',
      language: 'ne',
    })
    expect(await screen.findByRole('rowheader', { name: 'प्रश्न ३' })).toBeInTheDocument()
    expect(await screen.findByText('निर्णय पर्खिरहेको कुनै पुनर्जाँच अनुरोध छैन।')).toBeInTheDocument()
    expect(await axeViolations(view.container)).toEqual([])
  })
})

describe('who reaches marking', () => {
  const guarded = [
    {
      element: <RequireMarker />,
      children: [page(MarkingHomePage, '/marking'), { path: '/marking/quiz/:quizId', element: <p>quiz 12</p> }],
    },
    { element: <RequireAdmin />, children: [page(() => <p>admin panel</p>, '/admin')] },
    { path: '/', element: <p>dashboard</p> },
    { path: '/login', element: <p>login</p> },
    { element: <Outlet />, children: [] },
  ]

  // The way in lists quizzes (marking-home.test.tsx); here it has none.
  const noQuizzes = () =>
    fakeNetwork({ 'GET /api/admin/marking/': () => ({ body: { count: 0, page_size: 50, quizzes: [] } }) })

  it('lets a marker into marking and nothing else of admin', async () => {
    signIn({ is_admin: false, is_marker: true })
    noQuizzes()
    const marker = renderRoutes(guarded, { path: '/marking' })
    expect(await screen.findByRole('heading', { name: 'Marking' })).toBeInTheDocument()
    await act(() => marker.router.navigate('/admin'))
    expect(screen.getByText('dashboard')).toBeInTheDocument()
    marker.unmount()
  })

  it('sends a learner away from marking', async () => {
    signIn({ is_admin: false })
    renderRoutes(guarded, { path: '/marking' })
    expect(await screen.findByText('dashboard')).toBeInTheDocument()
  })

  it('opens a quiz from its number or a pasted link', async () => {
    signIn({ is_admin: false, is_marker: true })
    noQuizzes()
    const user = userEvent.setup()
    const view = renderRoutes(guarded, { path: '/marking' })
    await user.type(await screen.findByLabelText('Quiz number or marking link'), 'soon')
    await user.click(screen.getByRole('button', { name: 'Open' }))
    expect(screen.getByText(/Enter a quiz number/)).toBeInTheDocument()
    await user.clear(screen.getByLabelText('Quiz number or marking link'))
    await user.type(screen.getByLabelText('Quiz number or marking link'), 'https://x.np/marking/quiz/12')
    await user.click(screen.getByRole('button', { name: 'Open' }))
    expect(view.router.state.location.pathname).toBe('/marking/quiz/12')
    expect(screen.getByText('quiz 12')).toBeInTheDocument()
  })
})
