import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../../test/axe'
import { fakeNetwork, page, polyfillDialog, renderRoutes } from '../../test/page-test-utils'
import { sessionStore } from '../../session/session-store'
import type { MarkingAnswer, MarkingOverview, RegradeQueue, RegradeQueueEntry } from './marking.api'
import { Component as MarkingAnswerPage } from './marking-answer-page'
import { Component as MarkingQuizPage } from './marking-quiz-page'

const overview: MarkingOverview = {
  questions: [{ question_id: 5, number: 3, submitted: 12, marked: 0, released: 12, claimed: 0 }],
}
const entry = (id: number, overrides: Partial<RegradeQueueEntry> = {}): RegradeQueueEntry => ({
  id,
  status: 'open',
  message: 'Page 2 gives an example.',
  item_id: 52,
  response: null,
  created_at: '2026-11-21T08:00:00.000Z',
  decided_at: null,
  settled_at: null,
  old_marks: null,
  new_marks: null,
  answer_id: 80 + id,
  anonymous_code: `W-${80 + id}Q`,
  quiz: { id: 7, title: { en: 'Section Officer mock', ne: 'शाखा अधिकृत नमुना' } },
  question_id: 5,
  item: { id: 52, title: { en: 'Gives an example', ne: 'उदाहरण' } },
  marks: 5,
  max_marks: 10,
  ...overrides,
})
const answer: MarkingAnswer = {
  answer_id: 82,
  anonymous_code: 'W-82Q',
  text: 'Federalism shares power between three tiers, as in Bagmati Province.',
  word_count: 10,
  pages: [],
  rubric: {
    question_id: 5,
    marks: 10,
    scoring: 'positive',
    floor: 0,
    ceiling: 10,
    groups: [],
    items: [
      { id: 51, group_id: null, points: 5, title: { en: 'Names the tiers', ne: 'तह' }, explanation: null },
      { id: 52, group_id: null, points: 3, title: { en: 'Gives an example', ne: 'उदाहरण' }, explanation: null },
    ],
    revision: 2,
  },
  evaluation: { items: [51], adjustment: 0, comment: null, annotations: [], rubric_revision: 2, score: 5 },
}

function signIn(claims: { is_admin: boolean; is_marker?: boolean }) {
  const payload = btoa(JSON.stringify({ username: 'gita', exp: Math.floor(Date.now() / 1000) + 3600, ...claims }))
  sessionStore.setTokens({ access: `e30.${payload.replace(/=+$/, '')}.sig`, refresh: 'r' })
}

/** The server's queue by `status`, with decisions moving requests out of `open`. */
function fakeQueue(entries: RegradeQueueEntry[], extra = {}) {
  let stored = entries
  let asked = new URLSearchParams()
  const network = fakeNetwork({
    'GET /api/admin/quizzes/7/marking/': () => ({ body: overview }),
    'GET /api/admin/regrades/': () => {
      const results = stored.filter((candidate) => candidate.status === (asked.get('status') ?? 'open'))
      return { body: { count: results.length, page_size: 50, results } satisfies RegradeQueue }
    },
    'PATCH /api/admin/regrades/1/': ({ body }) => {
      const decision = body as { status: 'accepted' | 'rejected'; response: string }
      stored = stored.map((candidate) => (candidate.id === 1 ? { ...candidate, ...decision } : candidate))
      return { body: stored.find((candidate) => candidate.id === 1) }
    },
    ...extra,
  })
  // The fake routes by path; the queue's filters are in the query string, read here before each answer.
  const route = network.fetchMock.getMockImplementation()!
  network.fetchMock.mockImplementation((input, init) => {
    asked = new URL(String(input), 'http://localhost').searchParams
    return route(input, init)
  })
  const queries = () =>
    network.fetchMock.mock.calls
      .map(([input]) => new URL(String(input), 'http://localhost'))
      .filter((url) => url.pathname === '/api/admin/regrades/')
      .map((url) => Object.fromEntries(url.searchParams))
  return { ...network, queries }
}

const routes = [
  page(MarkingQuizPage, '/marking/quiz/:quizId'),
  page(MarkingAnswerPage, '/marking/quiz/:quizId/answer/:answerId'),
]

beforeAll(polyfillDialog)
afterEach(() => vi.unstubAllGlobals())

describe('the regrade queue', () => {
  it("shows a marker the quiz's open requests by anonymous code and accepts one with a response", async () => {
    signIn({ is_admin: false, is_marker: true })
    const network = fakeQueue([entry(1), entry(2, { item_id: null, item: null, message: 'Please look again.' })])
    const user = userEvent.setup()
    const view = renderRoutes(routes, { path: '/marking/quiz/7' })
    const queue = await screen.findByRole('region', { name: 'Regrade requests' })
    const first = (await within(queue).findByRole('heading', { name: /Answer W-81Q/ })).closest('li')!
    expect(first).toHaveTextContent('Question 3')
    expect(first).toHaveTextContent('AboutGives an example')
    expect(first).toHaveTextContent('Marks now5 of 10')
    expect(first).toHaveTextContent('Page 2 gives an example.')
    const second = within(queue)
      .getByRole('heading', { name: /Answer W-82Q/ })
      .closest('li')!
    expect(second).toHaveTextContent('AboutThe whole answer')
    expect(network.queries()[0]).toEqual({ status: 'open', quiz_id: '7', page: '1' })
    expect(await axeViolations(view.container)).toEqual([])

    // A response is required: the learner reads it.
    await user.click(within(first).getByRole('button', { name: 'Accept' }))
    expect(within(first).getByText('Write a response: the learner reads it.')).toBeInTheDocument()
    expect(network.callsTo('PATCH', '/api/admin/regrades/1/')).toHaveLength(0)
    await user.type(within(first).getByLabelText('Response to the learner'), '  The example earns its marks.  ')
    await user.click(within(first).getByRole('button', { name: 'Accept' }))
    expect(network.callsTo('PATCH', '/api/admin/regrades/1/')[0]!.body).toEqual({
      status: 'accepted',
      response: 'The example earns its marks.',
    })
    // Decided, it leaves the open list.
    await within(queue).findByText('1 request')
    expect(within(queue).queryByRole('heading', { name: /Answer W-81Q/ })).toBeNull()
  })

  it('rejects with a response, and says when another decided first', async () => {
    signIn({ is_admin: true })
    const network = fakeQueue([entry(1), entry(3)], {
      'PATCH /api/admin/regrades/3/': () => ({ status: 409, body: { code: 'regrade_decided', detail: 'decided' } }),
    })
    const user = userEvent.setup()
    renderRoutes(routes, { path: '/marking/quiz/7' })
    const first = (await screen.findByRole('heading', { name: /Answer W-81Q/ })).closest('li')!
    await user.type(within(first).getByLabelText('Response to the learner'), 'The rubric gives an example 3 marks.')
    await user.click(within(first).getByRole('button', { name: 'Reject' }))
    expect(network.callsTo('PATCH', '/api/admin/regrades/1/')[0]!.body).toEqual({
      status: 'rejected',
      response: 'The rubric gives an example 3 marks.',
    })
    const third = screen.getByRole('heading', { name: /Answer W-83Q/ }).closest('li')!
    await user.type(within(third).getByLabelText('Response to the learner'), 'No.')
    await user.click(within(third).getByRole('button', { name: 'Reject' }))
    expect(await within(third).findByText(/already been decided/)).toBeInTheDocument()
  })

  it('opens an accepted request’s answer by id, marks it again and tells the score', async () => {
    signIn({ is_admin: false, is_marker: true })
    const network = fakeQueue(
      [
        entry(2, { status: 'accepted', response: 'Looking again.', decided_at: '2026-11-22T08:00:00.000Z' }),
        entry(4, {
          status: 'accepted',
          settled_at: '2026-11-22T09:00:00.000Z',
          old_marks: 4,
          new_marks: 6,
        }),
      ],
      {
        'GET /api/admin/written-answers/82/': () => ({ body: answer }),
        'PUT /api/admin/written-answers/82/evaluation/': () => ({ body: { score: 8 } }),
      },
    )
    const user = userEvent.setup()
    const view = renderRoutes(routes, { path: '/marking/quiz/7' })
    await user.selectOptions(await screen.findByLabelText('Show'), 'Accepted')
    const settled = (await screen.findByRole('heading', { name: /Answer W-84Q/ })).closest('li')!
    expect(settled).toHaveTextContent('Marked again: 4 → 6.')
    expect(within(settled).queryByRole('link')).toBeNull()
    expect(network.queries().at(-1)).toMatchObject({ status: 'accepted' })
    await user.click(screen.getByRole('link', { name: 'Mark again: W-82Q' }))

    // The answer opens with its first marking in place.
    expect(await screen.findByRole('heading', { name: 'Answer W-82Q' })).toBeInTheDocument()
    expect(view.router.state.location.pathname).toBe('/marking/quiz/7/answer/82')
    expect(await axeViolations(view.container)).toEqual([])
    await user.click(screen.getByRole('button', { name: /Gives an example/ }))
    await user.click(screen.getByRole('button', { name: /Save the new marks/ }))
    expect(network.callsTo('PUT', '/api/admin/written-answers/82/evaluation/')[0]!.body).toMatchObject({
      items: [51, 52],
      rubric_revision: 2,
    })
    expect(await screen.findByRole('heading', { name: 'Marked again' })).toBeInTheDocument()
    expect(screen.getByText(/The new marks, 8, are saved/)).toBeInTheDocument()
    for (const back of screen.getAllByRole('link', { name: 'Back to marking' }))
      expect(back).toHaveAttribute('href', '/marking/quiz/7')
  })

  it('reads in Nepali without axe violations', async () => {
    signIn({ is_admin: true })
    fakeQueue([entry(1)])
    const view = renderRoutes(routes, { path: '/marking/quiz/7', language: 'ne' })
    const queue = await screen.findByRole('region', { name: 'पुनर्जाँच अनुरोधहरू' })
    const first = (await within(queue).findByRole('heading', { name: /उत्तर W-81Q/ })).closest('li')!
    expect(first).toHaveTextContent('प्रश्न ३')
    expect(first).toHaveTextContent('१० मध्ये ५')
    expect(within(first).getByRole('button', { name: 'स्वीकार गर्नुहोस्' })).toBeInTheDocument()
    expect(await axeViolations(view.container)).toEqual([])
  })
})
