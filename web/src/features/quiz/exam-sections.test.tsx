import type { AttemptSection, QuizAttempt } from '@quiz/contracts'
import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, polyfillDialog, renderRoutes, type FakeResponse } from '../../test/page-test-utils'
import { forgetAllAttempts } from './attempt-store'
import { accessOf, closeOpenSection, isSectioned, sectionIndexOf, sectionSecondsLeft } from './exam-sections'
import { QUIZ_ID, TOTAL, makeQuestion, makeSession } from '../../test/quiz-fixtures'
import { Component as QuizPage } from './quiz-page'

// A screen driven through fake timers and IndexedDB turns: on a busy 2-core machine a test can pass 5 s.
vi.setConfig({ testTimeout: 20_000 })

// The quiz of the fixtures (12 questions, attempt started 07:00) as a paper of two sections: 7 and 5 questions.
const section = (overrides: Partial<AttemptSection>): AttemptSection => ({
  title: { en: 'General', ne: 'सामान्य' },
  marks_correct: 1,
  marks_wrong: 0.2,
  first: 1,
  count: 7,
  time_limit_minutes: null,
  deadline: null,
  closed: false,
  ...overrides,
})

const untimed = [
  section({}),
  section({ title: { en: 'Mathematics', ne: 'गणित' }, first: 8, count: 5, marks_correct: 2, marks_wrong: 0.4 }),
]

/** Section 1: 5 minutes, open until 07:05; section 2: 10 minutes, not open yet. The attempt ends at 07:15. */
const timed = [
  section({ time_limit_minutes: 5, deadline: '2026-11-22T07:05:00.000Z' }),
  section({ title: { en: 'Mathematics', ne: 'गणित' }, first: 8, count: 5, time_limit_minutes: 10 }),
]

/** After "Next section" at 07:01: section 1 closed, section 2 open for its 10 minutes. */
const movedOn = [
  { ...timed[0]!, closed: true },
  { ...timed[1]!, deadline: '2026-11-22T07:11:00.000Z' },
]

const withSections = (sections: AttemptSection[], overrides: Partial<QuizAttempt['attempt']> = {}) => {
  const session = makeSession(overrides)
  return { ...session, attempt: { ...session.attempt, sections } } as QuizAttempt
}

function network(session: QuizAttempt, extra: Record<string, () => FakeResponse> = {}) {
  const routes: Record<string, () => FakeResponse | Promise<FakeResponse>> = {
    [`GET /api/quizzes/${QUIZ_ID}/`]: () => ({ body: session }),
    [`PUT /api/quizzes/${QUIZ_ID}/answers/`]: () => ({ body: { saved: 1, dropped: [] } }),
  }
  for (let number = 1; number <= TOTAL; number += 1) {
    routes[`GET /api/quizzes/${QUIZ_ID}/question/${number}/`] = () => ({ body: makeQuestion(number) })
  }
  return fakeNetwork({ ...routes, ...extra })
}

const renderQuiz = (language: 'en' | 'ne' = 'en') =>
  renderRoutes([page(QuizPage, '/quiz/:quizId'), page(() => <h1>Report stub</h1>, '/results/:attemptId')], {
    path: `/quiz/${QUIZ_ID}`,
    language,
  })

async function settle(ms = 0) {
  await act(() => vi.advanceTimersByTimeAsync(ms))
  let unchanged = 0
  let last = ''
  for (let turn = 0; turn < 300 && unchanged < 8; turn += 1) {
    await act(async () => {
      await new Promise((resolve) => setImmediate(resolve))
      await vi.advanceTimersByTimeAsync(0)
    })
    const now = document.body.innerHTML
    unchanged = now === last ? unchanged + 1 : 0
    last = now
  }
}

beforeAll(polyfillDialog)
beforeEach(async () => {
  await forgetAllAttempts()
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] })
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) })
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const user = () => userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) })
const tabs = (name = 'Sections') => within(screen.getByRole('navigation', { name })).getAllByRole('button')

describe('section rules', () => {
  it('shows tabs for several sections or a timed one, never for one untimed section', () => {
    expect(isSectioned(undefined)).toBe(false)
    expect(isSectioned([section({ count: 12 })])).toBe(false)
    expect(isSectioned([section({ count: 12, time_limit_minutes: 5 })])).toBe(true)
    expect(isSectioned(untimed)).toBe(true)
  })
  it('finds the section of a question and what may be done in it', () => {
    expect([1, 7, 8, 12].map((n) => sectionIndexOf(timed, n))).toEqual([0, 0, 1, 1])
    expect([accessOf(timed, 0), accessOf(timed, 1)]).toEqual(['open', 'locked'])
    expect([accessOf(movedOn, 0), accessOf(movedOn, 1)]).toEqual(['closed', 'open'])
    expect([accessOf(untimed, 0), accessOf(untimed, 1)]).toEqual(['open', 'open'])
  })
  it('counts a section down on the server clock, and opens the next one at its deadline', () => {
    const clock = { serverMs: Date.parse('2026-11-22T07:00:00.000Z'), at: 5_000 }
    expect(sectionSecondsLeft(timed[0], clock, 65_000)).toBe(240)
    expect(sectionSecondsLeft(timed[1], clock, 65_000)).toBeNull()
    // Opened a fraction after the clock was read: the deadline looks 300.4 s off, the section shows its 5 minutes.
    const late = section({ time_limit_minutes: 5, deadline: '2026-11-22T07:05:00.400Z' })
    expect(sectionSecondsLeft(late, clock, 5_000)).toBe(300)
    expect(closeOpenSection(timed)).toEqual([
      { ...timed[0], closed: true },
      { ...timed[1], deadline: '2026-11-22T07:15:00.000Z' },
    ])
  })
})

describe('exam screen with sections', () => {
  it('looks as before for a paper of one untimed section', async () => {
    network(withSections([section({ count: 12 })]))
    renderQuiz()
    await settle()
    expect(screen.queryByRole('navigation', { name: 'Sections' })).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Question 10, not visited' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Next section' })).not.toBeInTheDocument()
  })

  it('shows untimed sections as tabs with answered counts, the navigator paging within the section', async () => {
    network(withSections(untimed, { answers: { '109': 1091 } }))
    renderQuiz()
    await settle()
    expect(tabs().map((tab) => tab.textContent)).toEqual(['General0 of 7 answered', 'Mathematics1 of 5 answered'])
    expect(tabs()[0]).toHaveAttribute('aria-current', 'true')
    const navigator = screen.getByRole('navigation', { name: 'Questions' })
    expect(within(navigator).getAllByRole('button')).toHaveLength(7)
    await user().click(tabs()[1]!)
    await settle()
    expect(screen.getByText('What is question 8?')).toBeInTheDocument()
    expect(
      within(navigator)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['8', '9✓', '10', '11', '12'])
    // Untimed: Previous crosses back into the first section.
    await user().click(screen.getByRole('button', { name: 'Previous' }))
    expect(screen.getByText('What is question 7?')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Next section' })).not.toBeInTheDocument()
  })

  it('times the open section, locks the later one, and moves on early after confirmation', async () => {
    const net = network(withSections(timed), {
      [`POST /api/quizzes/${QUIZ_ID}/sections/next/`]: () => ({ body: { sections: movedOn } }),
    })
    renderQuiz()
    await settle()
    expect(screen.getByRole('timer')).toHaveTextContent('5:00')
    expect(tabs()[1]).toBeDisabled()
    expect(tabs()[1]).toHaveTextContent('Not yet open')
    await user().click(screen.getByRole('button', { name: 'Question 7, not visited' }))
    await settle()
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled()
    await settle(60_000)
    expect(screen.getByRole('timer')).toHaveTextContent('4:00')

    await user().click(screen.getByRole('button', { name: 'Next section' }))
    const dialog = screen.getByRole('dialog', { name: 'Move on to Mathematics?' })
    expect(dialog).toHaveTextContent('You have answered 0 of 7 questions in General.')
    await user().click(within(dialog).getByRole('button', { name: 'Yes, move on' }))
    await settle()
    expect(net.callsTo('POST', `/api/quizzes/${QUIZ_ID}/sections/next/`)).toHaveLength(1)
    expect(screen.getByText('What is question 8?')).toBeInTheDocument()
    // Section 2 opened at 07:01 for 10 minutes.
    expect(screen.getByRole('timer')).toHaveTextContent('10:00')
    expect(tabs()[0]).toHaveTextContent('Closed')
    expect(screen.queryByRole('button', { name: 'Next section' })).not.toBeInTheDocument()

    // A closed section can be read, not answered.
    await user().click(tabs()[0]!)
    await settle()
    expect(screen.getByText('What is question 1?')).toBeInTheDocument()
    expect(screen.getByText(/General is closed/)).toBeInTheDocument()
    for (const radio of screen.getAllByRole('radio')) expect(radio).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Mark for Review' })).toBeDisabled()
  })

  it("never shows more than a section's limit, though its deadline lies a fraction later on the server", async () => {
    // Read at 07:00:00 by the server's clock: a 6-minute section whose deadline is 360.5 s off (the attempt's own
    // deadline on another fraction of a second); after "Next section" at 07:00:01, the 10-minute one opened by the
    // server 0.4 s after the device's reading of its clock.
    const sixMinutes = [
      section({ time_limit_minutes: 6, deadline: '2026-11-22T07:06:00.500Z' }),
      section({ title: { en: 'Mathematics', ne: 'गणित' }, first: 8, count: 5, time_limit_minutes: 10 }),
    ]
    const opened = [
      { ...sixMinutes[0]!, closed: true },
      { ...sixMinutes[1]!, deadline: '2026-11-22T07:10:01.400Z' },
    ]
    network(withSections(sixMinutes, { deadline: '2026-11-22T07:16:00.000Z', remaining_seconds: 960 }), {
      [`POST /api/quizzes/${QUIZ_ID}/sections/next/`]: () => ({ body: { sections: opened } }),
    })
    renderQuiz()
    await settle()
    expect(screen.getByRole('timer')).toHaveTextContent('6:00')
    await settle(1_000)
    expect(screen.getByRole('timer')).toHaveTextContent('5:59')

    await user().click(screen.getByRole('button', { name: 'Next section' }))
    await user().click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, move on' }))
    await settle()
    expect(screen.getByText('What is question 8?')).toBeInTheDocument()
    expect(screen.getByRole('timer')).toHaveTextContent('10:00')
  })

  it('saves the answers just given before it closes the section, and stays when they cannot be saved', async () => {
    let reachable = false
    const net = network(withSections(timed), {
      [`PUT /api/quizzes/${QUIZ_ID}/answers/`]: () => {
        if (!reachable) throw new TypeError('Failed to fetch')
        return { body: { saved: 1, dropped: [] } }
      },
      [`POST /api/quizzes/${QUIZ_ID}/sections/next/`]: () => ({ body: { sections: movedOn } }),
    })
    renderQuiz()
    await settle()
    const moveOn = async () => {
      await user().click(screen.getByRole('button', { name: 'Next section' }))
      const dialog = screen.getByRole('dialog', { name: 'Move on to Mathematics?' })
      await user().click(within(dialog).getByRole('button', { name: 'Yes, move on' }))
      await settle()
    }
    // Answered and moved on at once, within the autosave's pause: the answer cannot reach the server.
    await user().click(screen.getByRole('radio', { name: /Choice 2 for 1/ }))
    await moveOn()
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Your answers in this section are not saved yet, so it stays open. Check your connection and try again.',
    )
    expect(net.callsTo('POST', `/api/quizzes/${QUIZ_ID}/sections/next/`)).toHaveLength(0)
    expect(tabs()[0]).not.toHaveTextContent('Closed')

    reachable = true
    await moveOn()
    const order = net.calls
      .filter((call) => call.method !== 'GET')
      .map((call) => `${call.method} ${call.path.replace(`/api/quizzes/${QUIZ_ID}/`, '')}`)
    expect(order.slice(-2)).toEqual(['PUT answers/', 'POST sections/next/'])
    expect(net.callsTo('PUT', `/api/quizzes/${QUIZ_ID}/answers/`).at(-1)?.body).toMatchObject({
      answers: { '101': 1012 },
    })
    expect(tabs()[0]).toHaveTextContent('Closed')
    expect(screen.getByText('What is question 8?')).toBeInTheDocument()
  })

  it('closes the open section at its deadline, opens the next, and asks the server where the paper is', async () => {
    // At 07:05 the server has closed section 1 and opened section 2 until 07:15, with 600 s left in the attempt.
    const reads: QuizAttempt[] = [
      withSections(timed),
      withSections(
        [
          { ...timed[0]!, closed: true },
          { ...timed[1]!, deadline: '2026-11-22T07:15:00.000Z' },
        ],
        {
          remaining_seconds: 600,
        },
      ),
    ]
    let read = 0
    network(withSections(timed), {
      [`GET /api/quizzes/${QUIZ_ID}/`]: () => ({ body: reads[Math.min(read++, 1)] }),
    })
    renderQuiz()
    await settle()
    expect(screen.getByRole('timer')).toHaveTextContent('5:00')
    await settle(299_000)
    // Open to its last second, as on the server (closed a second early, the next section showed 10:01).
    expect(screen.getByRole('timer')).toHaveTextContent('0:01')
    await settle(1_000)
    // Closed at once on the device (answers to it would be dropped), the server asked a moment later.
    expect(screen.getByText('What is question 8?')).toBeInTheDocument()
    expect(screen.getByRole('timer')).toHaveTextContent(/^(9:59|10:00)$/)
    expect(tabs()[0]).toHaveTextContent('Closed')
    await settle(2_000)
    expect(read).toBe(2)
    expect(screen.getByRole('timer')).toHaveTextContent(/^(9:57|9:58)$/)
    expect(screen.queryByRole('button', { name: 'Next section' })).not.toBeInTheDocument()
  })

  it('waits for the server to open the next section before showing its first question, with no failure shown', async () => {
    // The device's clock closes section 1 a moment before the server's does: question 8 is refused twice first.
    let asked = 0
    let read = 0
    const opened = withSections(
      [
        { ...timed[0]!, closed: true },
        { ...timed[1]!, deadline: '2026-11-22T07:15:00.000Z' },
      ],
      { remaining_seconds: 600 },
    )
    network(withSections(timed), {
      [`GET /api/quizzes/${QUIZ_ID}/`]: () => ({ body: read++ === 0 ? withSections(timed) : opened }),
      [`GET /api/quizzes/${QUIZ_ID}/question/8/`]: () =>
        asked++ < 2
          ? { status: 403, body: { detail: 'This section is not open yet.', code: 'section_not_open' } }
          : { body: makeQuestion(8) },
    })
    renderQuiz()
    await settle()
    await settle(300_000)
    expect(screen.queryByText(/Failed to load question/)).not.toBeInTheDocument()
    await settle(2_500)
    expect(asked).toBe(3)
    expect(screen.getByText('What is question 8?')).toBeInTheDocument()
    expect(screen.queryByText(/Failed to load question/)).not.toBeInTheDocument()
  })

  it('says when the server dropped answers of a closed section, naming the question', async () => {
    network(withSections(timed), {
      [`PUT /api/quizzes/${QUIZ_ID}/answers/`]: () => ({ body: { saved: 0, dropped: [101] } }),
    })
    renderQuiz()
    await settle()
    await user().click(screen.getByRole('radio', { name: /Choice 2 for 1/ }))
    await settle(1000)
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Your answer to question 1 was not saved because its section had already closed.',
    )
  })

  it('says nothing when what the server dropped was no answer (the seconds spent on a closed section)', async () => {
    // The server names a question of which anything was dropped: here the save held no answer to it.
    const net = network(withSections(timed), {
      [`PUT /api/quizzes/${QUIZ_ID}/answers/`]: () => ({ body: { saved: 1, dropped: [107] } }),
    })
    renderQuiz()
    await settle()
    await user().click(screen.getByRole('radio', { name: /Choice 2 for 1/ }))
    await settle(1000)
    expect(net.callsTo('PUT', `/api/quizzes/${QUIZ_ID}/answers/`).length).toBeGreaterThan(0)
    expect(screen.queryByText(/was not saved|were not saved/)).not.toBeInTheDocument()
  })

  it('hands in the paper when the last section time is over, and shows the score out of the maximum', async () => {
    const net = network(withSections(movedOn, { remaining_seconds: 600, deadline: '2026-11-22T07:11:00.000Z' }), {
      [`POST /api/quizzes/${QUIZ_ID}/submit/`]: () => ({
        body: {
          attempt_id: 42,
          score: 2.35,
          correct: 3,
          incorrect: 1,
          unanswered: 8,
          total_questions: TOTAL,
          completed_timestamp: '2026-11-22T07:11:00.000Z',
          late: false,
          max_score: 17,
          sections: [],
        },
      }),
    })
    renderQuiz()
    await settle()
    expect(screen.getByText('What is question 8?')).toBeInTheDocument()
    expect(screen.getByRole('timer')).toHaveTextContent('10:00')
    await settle(600_000)
    expect(net.callsTo('POST', `/api/quizzes/${QUIZ_ID}/submit/`)).toHaveLength(1)
    expect(screen.getByText('out of 17')).toBeInTheDocument()
  })

  it('reads in Nepali with Devanagari digits', async () => {
    network(withSections(timed, { answers: { '101': 1011 } }))
    renderQuiz('ne')
    await settle()
    expect(tabs('खण्डहरू')[0]).toHaveTextContent('सामान्य७ मध्ये १ उत्तर दिइयो')
    expect(tabs('खण्डहरू')[1]).toHaveTextContent('अझै खुलेको छैन')
    expect(screen.getByRole('button', { name: 'अर्को खण्ड' })).toBeInTheDocument()
    expect(screen.getByRole('timer')).toHaveTextContent('५:००')
  })
})
