import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../../test/axe'
import { fakeNetwork, page, renderRoutes } from '../../test/page-test-utils'
import { sessionStore } from '../../session/session-store'
import type { MarkingQuiz, MarkingQuizzes } from './marking.api'
import { Component as MarkingHomePage } from './marking-home-page'

// A marker's way in (docs/decisions/094): the quizzes with written answers, their counts, and the empty state.
function signInAsMarker() {
  const claims = { username: 'gita', exp: Math.floor(Date.now() / 1000) + 3600, is_admin: false, is_marker: true }
  sessionStore.setTokens({ access: `e30.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.sig`, refresh: 'r' })
}

const quiz = (overrides: Partial<MarkingQuiz>): MarkingQuiz => ({
  id: 7,
  title: { en: 'Section Officer written, set 1', ne: 'शाखा अधिकृत लिखित, सेट १' },
  questions: 2,
  submitted: 30,
  marked: 4,
  released: 10,
  to_mark: 12,
  last_activity: '2026-11-27T10:00:00Z',
  ...overrides,
})
const listed = (quizzes: MarkingQuiz[], count = quizzes.length): MarkingQuizzes => ({ count, page_size: 50, quizzes })

const routes = [page(MarkingHomePage, '/marking'), page(() => <p>quiz overview</p>, '/marking/quiz/:quizId')]

afterEach(() => vi.unstubAllGlobals())

describe("a marker's way in", () => {
  it('lists the quizzes with their counts and opens one', async () => {
    signInAsMarker()
    fakeNetwork({
      'GET /api/admin/marking/': () => ({
        body: listed([quiz({}), quiz({ id: 8, title: { en: 'Nayab Subba written', ne: '' }, to_mark: 0 })]),
      }),
    })
    const user = userEvent.setup()
    const view = renderRoutes(routes, { path: '/marking' })
    const first = (await screen.findByRole('heading', { name: 'Section Officer written, set 1' })).closest('li')!
    expect(within(first).getByText('2 written questions', { exact: false })).toBeInTheDocument()
    const counts = Object.fromEntries(
      within(first)
        .getAllByRole('term')
        .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
    )
    expect(counts).toEqual({
      'Left for you to mark': '12',
      'Marked, not released': '4',
      Released: '10',
      Submitted: '30',
    })
    // Nothing left to mark: the quiz still opens, less loudly.
    const second = screen.getByRole('heading', { name: 'Nayab Subba written' }).closest('li')!
    expect(within(second).getByRole('link', { name: 'Open' })).toHaveAttribute('href', '/marking/quiz/8')
    expect(await axeViolations(view.container)).toEqual([])
    await user.click(within(first).getByRole('link', { name: 'Mark' }))
    expect(view.router.state.location.pathname).toBe('/marking/quiz/7')
  })

  it('reads in Nepali, an English-only title marked as English', async () => {
    signInAsMarker()
    fakeNetwork({
      'GET /api/admin/marking/': () => ({
        body: listed([quiz({}), quiz({ id: 8, title: { en: 'Nayab Subba written', ne: '' } })]),
      }),
    })
    const view = renderRoutes(routes, { path: '/marking', language: 'ne' })
    const first = (await screen.findByRole('heading', { name: 'शाखा अधिकृत लिखित, सेट १' })).closest('li')!
    expect(within(first).getByText('तपाईंले जाँच्न बाँकी').nextElementSibling).toHaveTextContent('१२')
    expect(screen.getByRole('heading', { name: 'Nayab Subba written' })).toHaveAttribute('lang', 'en')
    expect(await axeViolations(view.container)).toEqual([])
  })

  it('says so when no quiz has written answers, and still opens a quiz by number', async () => {
    signInAsMarker()
    fakeNetwork({ 'GET /api/admin/marking/': () => ({ body: listed([]) }) })
    const view = renderRoutes(routes, { path: '/marking' })
    expect(await screen.findByText(/No quiz has written answers yet/)).toBeInTheDocument()
    expect(screen.queryByRole('list')).not.toBeInTheDocument()
    expect(await axeViolations(view.container)).toEqual([])
    const user = userEvent.setup()
    await user.type(screen.getByLabelText('Quiz number or marking link'), '12')
    await user.click(screen.getByRole('button', { name: 'Open' }))
    expect(view.router.state.location.pathname).toBe('/marking/quiz/12')
  })

  it('pages through more quizzes than a page holds', async () => {
    signInAsMarker()
    const network = fakeNetwork({
      'GET /api/admin/marking/': () => ({ body: listed([quiz({})], 51) }),
    })
    const user = userEvent.setup()
    renderRoutes(routes, { path: '/marking' })
    expect(await screen.findByText('Page 1 of 2')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Next' }))
    expect(await screen.findByText('Page 2 of 2')).toBeInTheDocument()
    expect(network.calls.map((call) => call.path)).toEqual(['/api/admin/marking/', '/api/admin/marking/'])
  })
})
