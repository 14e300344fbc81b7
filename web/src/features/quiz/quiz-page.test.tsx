import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, polyfillDialog, renderRoutes, type FakeResponse } from '../../test/page-test-utils'
import { answerStorageKey } from './answer-queue'
import { clockStorageKey } from './attempt-clock'
import { forgetAllAttempts, loadAttempt, loadQuestion } from './attempt-store'
import type { QuizAttempt, SubmitResult } from '@quiz/contracts'
import { ATTEMPT_ID, QUIZ_ID, TOTAL, makeQuestion, makeSession } from '../../test/quiz-fixtures'
import { Component as QuizPage } from './quiz-page'

const result: SubmitResult = {
  attempt_id: ATTEMPT_ID,
  score: 2.6,
  correct: 3,
  incorrect: 2,
  unanswered: 7,
  total_questions: TOTAL,
  completed_timestamp: '2026-11-22T07:10:00.000Z',
  late: false,
  ranked: true,
  max_score: TOTAL,
  sections: [{ title: { en: '', ne: '' }, score: 2.6, max_score: TOTAL, correct: 3, incorrect: 2, unanswered: 7 }],
}

function network({
  session = makeSession(),
  start,
  submit = () => ({ body: result }),
  save = () => ({ body: { saved: 1 } }),
  question,
}: {
  session?: QuizAttempt
  start?: () => FakeResponse | Promise<FakeResponse>
  submit?: () => FakeResponse | Promise<FakeResponse>
  save?: () => FakeResponse | Promise<FakeResponse>
  question?: (number: number) => FakeResponse
} = {}) {
  const routes: Record<string, () => FakeResponse | Promise<FakeResponse>> = {
    [`GET /api/quizzes/${QUIZ_ID}/`]: start ?? (() => ({ body: session })),
    [`PUT /api/quizzes/${QUIZ_ID}/answers/`]: save,
    [`POST /api/quizzes/${QUIZ_ID}/submit/`]: submit,
  }
  for (let number = 1; number <= TOTAL; number += 1) {
    routes[`GET /api/quizzes/${QUIZ_ID}/question/${number}/`] = question
      ? () => question(number)
      : () => ({ body: makeQuestion(number) })
  }
  return fakeNetwork(routes)
}

function Dashboard() {
  return <h1>Dashboard stub</h1>
}

function renderQuiz({ path = `/quiz/${QUIZ_ID}`, language = 'en' as 'en' | 'ne' } = {}) {
  return renderRoutes(
    [page(QuizPage, '/quiz/:quizId'), page(Dashboard, '/'), page(() => <h1>Report stub</h1>, '/results/:attemptId')],
    {
      path,
      language,
    },
  )
}

/**
 * Lets fetches resolve and due timers run, and the device's IndexedDB answer: (fake-indexeddb) answers on real
 * setImmediate turns, which fake timers do not run, so turns pass until the screen has stopped changing.
 */
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
  // Testing Library drains its async wrapper with setTimeout(0), advancing fake timers only through a global `jest`.
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) })
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const user = () => userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) })

describe('quiz page', () => {
  it('starts the attempt once and shows the title, the m:ss timer and question 1 with its image', async () => {
    const net = network()
    renderQuiz()
    expect(screen.getByText('Loading quiz...')).toBeInTheDocument()
    await settle()
    expect(screen.getByRole('heading', { level: 1, name: 'General Knowledge' })).toBeInTheDocument()
    expect(screen.getByRole('timer')).toHaveTextContent('15:00')
    expect(screen.getByText('What is question 1?')).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'A triangle' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/svg\+xml/),
    )
    expect(screen.getByText('A triangle')).toBeInTheDocument()
    expect(screen.getAllByRole('radio')).toHaveLength(4)
    await settle(2000)
    expect(screen.getByRole('timer')).toHaveTextContent('14:58')
    expect(net.callsTo('GET', `/api/quizzes/${QUIZ_ID}/`)).toHaveLength(1)
  })

  it('fetches every question of the attempt at the start, so Next is instant and the paper works offline', async () => {
    const net = network()
    renderQuiz()
    await settle()
    expect(net.callsTo('GET', `/api/quizzes/${QUIZ_ID}/question/2/`)).toHaveLength(1)
    await user().click(screen.getByRole('button', { name: 'Next' }))
    expect(screen.getByText('What is question 2?')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Question 2, not answered' })).toHaveAttribute('aria-current', 'step')
    await settle()
    // Question 2 came from the cache; every question was fetched once.
    for (let number = 1; number <= TOTAL; number += 1) {
      expect(net.callsTo('GET', `/api/quizzes/${QUIZ_ID}/question/${number}/`)).toHaveLength(1)
    }
    await user().click(screen.getByRole('button', { name: 'Previous' }))
    expect(screen.getByText('What is question 1?')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled()
  })

  it('opens the question chosen in the navigator, across pages', async () => {
    network()
    renderQuiz()
    await settle()
    await user().click(screen.getByRole('button', { name: 'Next questions' }))
    await user().click(screen.getByRole('button', { name: 'Question 12, not visited' }))
    await settle()
    expect(screen.getByText('What is question 12?')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled()
  })

  it('shows each question as a group named by its number, and moving puts focus on its heading', async () => {
    network()
    renderQuiz()
    await settle()
    expect(screen.getByRole('group', { name: 'Question 1 of 12' })).toBeInTheDocument()
    // Opening the exam leaves focus where the screen put it; only moving takes it to the question.
    expect(screen.getByRole('heading', { name: 'Question 1 of 12' })).not.toHaveFocus()
    await user().click(screen.getByRole('button', { name: 'Next' }))
    await settle()
    expect(screen.getByRole('group', { name: 'Question 2 of 12' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Question 2 of 12' })).toHaveFocus()
  })

  it('saves a chosen answer on the device at once and to the server after a short pause', async () => {
    const net = network()
    renderQuiz()
    await settle()
    await user().click(screen.getByRole('radio', { name: /Choice 2 for 1/ }))
    expect(screen.getByRole('radio', { name: /Choice 2 for 1/ })).toBeChecked()
    expect(JSON.parse(localStorage.getItem(answerStorageKey(QUIZ_ID, ATTEMPT_ID)) ?? '{}')).toMatchObject({
      answers: { '101': 1012 },
    })
    expect(screen.getByRole('button', { name: 'Question 1, answered' })).toBeInTheDocument()
    // A change of mind within the pause goes out in the same request.
    await user().click(screen.getByRole('radio', { name: /Choice 3 for 1/ }))
    await settle(1000)
    expect(net.callsTo('PUT', `/api/quizzes/${QUIZ_ID}/answers/`).map((c) => c.body)).toEqual([
      expect.objectContaining({ answers: { '101': 1013 } }),
    ])
    expect(screen.getByText('All answers saved')).toBeInTheDocument()
  })

  it('restores the server answers merged with changes still queued on the device', async () => {
    localStorage.setItem(
      answerStorageKey(QUIZ_ID, ATTEMPT_ID),
      JSON.stringify({ answers: { '102': 1023 }, pending: { '102': 1023 } }),
    )
    localStorage.setItem(
      answerStorageKey(QUIZ_ID, ATTEMPT_ID - 1),
      JSON.stringify({ answers: { '101': 1014 }, pending: {} }),
    )
    const net = network({ session: makeSession({ answers: { '101': 1011, '102': 1021 }, remaining_seconds: 300 }) })
    renderQuiz()
    await settle()
    expect(screen.getByRole('timer')).toHaveTextContent('5:00')
    expect(screen.getByRole('radio', { name: /Choice 1 for 1/ })).toBeChecked()
    expect(screen.getByRole('button', { name: 'Question 2, answered' })).toBeInTheDocument()
    await settle(800)
    expect(net.callsTo('PUT', `/api/quizzes/${QUIZ_ID}/answers/`).map((c) => c.body)).toEqual([
      { answers: { '102': 1023 } },
      // Question 1's visit follows in a save of its own.
      { visited: [101] },
    ])
    // An older attempt's leftovers are dropped.
    expect(localStorage.getItem(answerStorageKey(QUIZ_ID, ATTEMPT_ID - 1))).toBeNull()
    await user().click(screen.getByRole('button', { name: 'Next' }))
    expect(screen.getByRole('radio', { name: /Choice 3 for 2/ })).toBeChecked()
  })

  it('marks for review, clears a response, restores the palette from the server and counts states before submitting', async () => {
    const net = network({
      session: makeSession({
        answers: { '103': 1031, '104': 1041 },
        marked: [104, 105],
        visited: [101, 102, 103, 104, 105],
      }),
    })
    renderQuiz()
    await settle()
    // From the server: 2 not answered (1 is shown), 3 answered, 4 answered and marked, 5 marked, 6 on not visited.
    expect(screen.getByRole('button', { name: 'Question 2, not answered' })).toHaveClass('palette--not_answered')
    expect(screen.getByRole('button', { name: 'Question 3, answered' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Question 4, answered and marked for review' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Question 5, marked for review' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Question 6, not visited' })).toBeInTheDocument()

    // Question 1: answer, mark, then clear the answer (it stays marked).
    const mark = screen.getByRole('button', { name: 'Mark for Review' })
    expect(mark).toHaveAttribute('aria-pressed', 'false')
    expect(screen.getByRole('button', { name: 'Clear Response' })).toBeDisabled()
    await user().click(screen.getByRole('radio', { name: /Choice 2 for 1/ }))
    await user().click(mark)
    expect(mark).toHaveAttribute('aria-pressed', 'true')
    expect(screen.getByRole('button', { name: 'Question 1, answered and marked for review' })).toBeInTheDocument()
    await user().click(screen.getByRole('button', { name: 'Clear Response' }))
    expect(screen.getByRole('radio', { name: /Choice 2 for 1/ })).not.toBeChecked()
    expect(screen.getByRole('button', { name: 'Question 1, marked for review' })).toBeInTheDocument()
    await settle(1000)
    expect(net.callsTo('PUT', `/api/quizzes/${QUIZ_ID}/answers/`).map((c) => c.body)).toContainEqual(
      expect.objectContaining({ answers: { '101': null }, marked: { '101': true } }),
    )

    await user().click(screen.getByRole('button', { name: 'Submit Quiz' }))
    const confirm = screen.getByRole('dialog', { name: 'Submit the quiz?' })
    const count = (label: string) => within(confirm).getByText(label).nextSibling
    expect(count('Answered')).toHaveTextContent('1')
    expect(count('Answered and marked for review')).toHaveTextContent('1')
    expect(count('Not answered')).toHaveTextContent('1')
    expect(count('Marked for review')).toHaveTextContent('2')
    expect(count('Not visited')).toHaveTextContent('7')
  })

  it('opens the question in the address after a reload', async () => {
    network()
    renderQuiz({ path: `/quiz/${QUIZ_ID}?q=11` })
    await settle()
    expect(screen.getByText('What is question 11?')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Question 11, not answered' })).toHaveAttribute('aria-current', 'step')
  })

  it('submits after Confirm with the full answer map and the attempt id, then shows the score', async () => {
    const net = network()
    const view = renderQuiz()
    await settle()
    await user().click(screen.getByRole('radio', { name: /Choice 1 for 1/ }))
    await user().click(screen.getByRole('button', { name: 'Submit Quiz' }))
    const confirm = screen.getByRole('dialog', { name: 'Submit the quiz?' })
    expect(within(confirm).getByText('You have answered 1 of 12 questions.')).toBeInTheDocument()
    // A screen reader reads the counts with the title when the confirmation opens.
    expect(confirm).toHaveAccessibleDescription(/You have answered 1 of 12 questions\..*Not visited/)
    await user().click(within(confirm).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Submit Quiz' })).toHaveFocus()
    expect(net.callsTo('POST', `/api/quizzes/${QUIZ_ID}/submit/`)).toHaveLength(0)

    await user().click(screen.getByRole('button', { name: 'Submit Quiz' }))
    await user().click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }))
    await settle()
    expect(net.callsTo('POST', `/api/quizzes/${QUIZ_ID}/submit/`).map((c) => c.body)).toEqual([
      expect.objectContaining({ answers: { '101': 1011 }, attempt_id: ATTEMPT_ID }),
    ])
    const score = screen.getByRole('dialog', { name: 'Quiz submitted' })
    expect(within(score).getByText('2.60')).toBeInTheDocument()
    expect(within(score).getByText('Correct').nextSibling).toHaveTextContent('3')
    expect(within(score).getByText('Incorrect').nextSibling).toHaveTextContent('2')
    expect(within(score).getByText('Unanswered').nextSibling).toHaveTextContent('7')
    expect(localStorage.getItem(answerStorageKey(QUIZ_ID, ATTEMPT_ID))).toBeNull()
    // The clock stops once the attempt is handed in.
    const stopped = screen.getByRole('timer').textContent
    await settle(5000)
    expect(screen.getByRole('timer').textContent).toBe(stopped)

    // Leaving after the submission is not blocked.
    await user().click(within(score).getByRole('button', { name: 'Back to Dashboard' }))
    await settle()
    expect(view.router.state.location.pathname).toBe('/')
    expect(screen.getByRole('heading', { name: 'Dashboard stub' })).toBeInTheDocument()
  })

  it('retries a submission that got no answer before reporting a failure', async () => {
    let calls = 0
    network({
      submit: () =>
        calls++ === 0 ? { status: 503, body: { detail: 'down', code: 'service_unavailable' } } : { body: result },
    })
    renderQuiz()
    await settle()
    await user().click(screen.getByRole('button', { name: 'Submit Quiz' }))
    await user().click(screen.getByRole('button', { name: 'Confirm' }))
    await settle()
    expect(screen.queryByRole('dialog', { name: 'Quiz submitted' })).not.toBeInTheDocument()
    await settle(1000)
    expect(calls).toBe(2)
    expect(screen.getByRole('dialog', { name: 'Quiz submitted' })).toBeInTheDocument()
    expect(screen.queryByText('There was an error submitting your quiz. Please try again.')).not.toBeInTheDocument()
  })

  it('shows the submit error and lets the learner submit again', async () => {
    let fail = true
    const net = network({
      submit: () => (fail ? { status: 500, body: { detail: 'boom', code: 'server_error' } } : { body: result }),
    })
    renderQuiz()
    await settle()
    await user().click(screen.getByRole('radio', { name: /Choice 4 for 1/ }))
    await user().click(screen.getByRole('button', { name: 'Submit Quiz' }))
    await user().click(screen.getByRole('button', { name: 'Confirm' }))
    expect(screen.getByRole('button', { name: 'Submitting...' })).toBeDisabled()
    await settle(5000)
    expect(net.callsTo('POST', `/api/quizzes/${QUIZ_ID}/submit/`)).toHaveLength(3)
    expect(screen.getByRole('alert')).toHaveTextContent('There was an error submitting your quiz. Please try again.')
    const submit = screen.getByRole('button', { name: 'Submit Quiz' })
    expect(submit).toBeEnabled()
    // Answers stay on the device until a submission succeeds.
    expect(localStorage.getItem(answerStorageKey(QUIZ_ID, ATTEMPT_ID))).not.toBeNull()
    fail = false
    await user().click(submit)
    await user().click(screen.getByRole('button', { name: 'Confirm' }))
    await settle()
    expect(screen.getByRole('dialog', { name: 'Quiz submitted' })).toBeInTheDocument()
  })

  it('submits automatically when the timer reaches 1 second', async () => {
    const net = network({ session: makeSession({ remaining_seconds: 5 }) })
    renderQuiz()
    await settle()
    await user().click(screen.getByRole('radio', { name: /Choice 2 for 1/ }))
    expect(net.callsTo('POST', `/api/quizzes/${QUIZ_ID}/submit/`)).toHaveLength(0)
    await settle(4000)
    expect(net.callsTo('POST', `/api/quizzes/${QUIZ_ID}/submit/`).map((c) => c.body)).toEqual([
      expect.objectContaining({ answers: { '101': 1012 }, attempt_id: ATTEMPT_ID }),
    ])
    expect(screen.getByRole('dialog', { name: 'Time is up: quiz submitted' })).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: /Choice 2 for 1/ })).toBeDisabled()
  })

  it('retries a failed automatic submission when the connection returns', async () => {
    let offline = true
    const net = network({
      session: makeSession({ remaining_seconds: 3 }),
      submit: () => (offline ? Promise.reject(new TypeError('Failed to fetch')) : { body: result }),
    })
    renderQuiz()
    await settle()
    await settle(2000)
    await settle(5000)
    expect(net.callsTo('POST', `/api/quizzes/${QUIZ_ID}/submit/`)).toHaveLength(3)
    expect(screen.getByRole('alert')).toHaveTextContent('There was an error submitting your quiz. Please try again.')
    offline = false
    await act(async () => {
      window.dispatchEvent(new Event('online'))
    })
    await settle()
    expect(net.callsTo('POST', `/api/quizzes/${QUIZ_ID}/submit/`)).toHaveLength(4)
    expect(screen.getByRole('dialog', { name: 'Time is up: quiz submitted' })).toBeInTheDocument()
  })

  it('hands in at once when the server says the deadline has passed', async () => {
    const net = network({ save: () => ({ status: 409, body: { detail: 'over', code: 'attempt_closed' } }) })
    renderQuiz()
    await settle()
    await user().click(screen.getByRole('radio', { name: /Choice 2 for 1/ }))
    await settle(1000)
    expect(net.callsTo('POST', `/api/quizzes/${QUIZ_ID}/submit/`)).toHaveLength(1)
    expect(screen.getByRole('dialog', { name: 'Time is up: quiz submitted' })).toBeInTheDocument()
  })

  it.each([
    [403, 'no_attempts_left', 'You have no attempts remaining for this quiz.'],
    [403, 'paid_access_required', 'This quiz is for paid members.'],
    [404, 'not_found', 'Failed to load quiz. It might not be active.'],
    [403, 'live_not_started', 'This live mock has not started yet.'],
    [409, 'practice_not_open', 'Practice on this live mock opens once everyone sitting it has finished.'],
  ])('shows the load error for %i %s', async (status, code, message) => {
    network({ start: () => ({ status, body: { detail: 'refused', code } }) })
    renderQuiz()
    await settle()
    expect(screen.getByRole('alert')).toHaveTextContent(message)
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/')
  })

  it("says a live mock's join window has closed (409 between it and the common end)", async () => {
    network({
      start: () => ({
        status: 409,
        body: { detail: 'The join window of this live mock has closed.', code: 'conflict' },
      }),
    })
    renderQuiz()
    await settle()
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The join window of this live mock has closed. Practice opens after it ends.',
    )
  })

  it('retries starting when the connection drops, since resuming is safe', async () => {
    let calls = 0
    network({
      start: () =>
        calls++ === 0 ? { status: 502, body: { detail: 'gateway', code: 'server_error' } } : { body: makeSession() },
    })
    renderQuiz()
    await settle(1000)
    expect(screen.getByRole('heading', { level: 1, name: 'General Knowledge' })).toBeInTheDocument()
  })

  it('shows which question failed to load and can try again', async () => {
    let fail = true
    network({
      question: (number) =>
        fail ? { status: 404, body: { detail: 'no', code: 'not_found' } } : { body: makeQuestion(number) },
    })
    renderQuiz()
    await settle()
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to load question #1.')
    fail = false
    await user().click(screen.getByRole('button', { name: 'Try again' }))
    await settle()
    expect(screen.getByText('What is question 1?')).toBeInTheDocument()
  })

  it('asks before leaving a quiz in progress, in its own dialog', async () => {
    network()
    const view = renderQuiz()
    await settle()
    await act(() => view.router.navigate('/'))
    const dialog = screen.getByRole('dialog', { name: 'Leave the quiz?' })
    expect(dialog).toHaveTextContent('Are you sure you want to leave? Your progress will be lost if you do not submit.')
    await user().click(within(dialog).getByRole('button', { name: 'Stay' }))
    expect(view.router.state.location.pathname).toBe(`/quiz/${QUIZ_ID}`)
    expect(screen.getByText('What is question 1?')).toBeInTheDocument()

    await act(() => view.router.navigate('/'))
    await user().click(screen.getByRole('button', { name: 'Leave' }))
    await settle()
    expect(view.router.state.location.pathname).toBe('/')
  })

  it('asks the browser to confirm closing the tab while the quiz is in progress', async () => {
    network()
    renderQuiz()
    await settle()
    const event = new Event('beforeunload', { cancelable: true })
    window.dispatchEvent(event)
    expect(event.defaultPrevented).toBe(true)
  })

  it('speaks Nepali, content and interface alike', async () => {
    network()
    renderQuiz({ language: 'ne' })
    await settle()
    expect(screen.getByRole('heading', { level: 1, name: 'सामान्य ज्ञान' })).toBeInTheDocument()
    expect(screen.getByText('प्रश्न 1 के हो?')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'क्विज बुझाउनुहोस्' })).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'त्रिभुज' })).toBeInTheDocument()
  })
})

describe('quiz page without a connection (decision 019)', () => {
  /** The browser's view of the connection, and a network that fails every request while it is down. */
  function connection() {
    let online = true
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online)
    const down = () => Promise.reject(new TypeError('Failed to fetch'))
    const through =
      <T,>(respond: () => T) =>
      () =>
        online ? respond() : down()
    const set = async (value: boolean) => {
      online = value
      await act(async () => {
        window.dispatchEvent(new Event(value ? 'online' : 'offline'))
      })
    }
    return { through, set }
  }

  it('reopens from the device after a reload offline, moves through every question, and sends the answers when back', async () => {
    const link = connection()
    const net = network({
      start: link.through(() => ({ body: makeSession() })),
      save: link.through(() => ({ body: { saved: 1 } })),
      question: (number) => ({ body: makeQuestion(number) }),
    })
    const first = renderQuiz()
    await settle()
    expect(
      screen.getByText('All questions are on this device: you can continue if the connection drops.'),
    ).toBeVisible()
    await user().click(screen.getByRole('radio', { name: /Choice 2 for 1/ }))
    await settle(1000)
    expect(net.callsTo('PUT', `/api/quizzes/${QUIZ_ID}/answers/`)).toHaveLength(1)

    // Offline, a minute later, the tab is reloaded.
    await link.set(false)
    await settle(60_000)
    first.unmount()
    const questionsFetched = net.calls.filter((call) => call.path.includes('/question/')).length
    renderQuiz({ path: `/quiz/${QUIZ_ID}?q=1` })
    await settle()
    expect(screen.getByRole('heading', { level: 1, name: 'General Knowledge' })).toBeInTheDocument()
    expect(screen.getByText(/^You are offline\./)).toBeVisible()
    expect(screen.getByRole('radio', { name: /Choice 2 for 1/ })).toBeChecked()
    // The countdown went on from the device's anchor, 15:00 less the 61 s passed, never back to 15:00.
    expect(screen.getByRole('timer')).toHaveTextContent('13:59')
    await user().click(screen.getByRole('button', { name: 'Next questions' }))
    await user().click(screen.getByRole('button', { name: 'Question 12, not visited' }))
    await settle()
    expect(screen.getByText('What is question 12?')).toBeInTheDocument()
    await user().click(screen.getByRole('radio', { name: /Choice 4 for 12/ }))
    await user().click(screen.getByRole('button', { name: 'Mark for Review' }))
    await settle(1000)
    expect(screen.getByText('Offline: 2 answers waiting to be sent')).toBeVisible()
    // Every question came from the device; the attempt was never asked for again.
    expect(net.calls.filter((call) => call.path.includes('/question/'))).toHaveLength(questionsFetched)
    expect(net.callsTo('GET', `/api/quizzes/${QUIZ_ID}/`)).toHaveLength(1)

    await link.set(true)
    await settle(1000)
    const saves = net.callsTo('PUT', `/api/quizzes/${QUIZ_ID}/answers/`).map((call) => call.body)
    expect(saves.at(-1)).toMatchObject({ answers: { '112': 1124 }, marked: { '112': true }, visited: [112] })
    expect(screen.getByText('Back online: 1 answer sent.')).toBeVisible()
    await settle(10_000)
    expect(screen.queryByText('Back online: 1 answer sent.')).not.toBeInTheDocument()
  })

  it('when time runs out offline, says the answers go when the connection returns, submits then, and clears the device', async () => {
    const link = connection()
    const net = network({
      session: makeSession({ remaining_seconds: 30 }),
      submit: link.through(() => ({ body: result })),
      save: link.through(() => ({ body: { saved: 1 } })),
    })
    renderQuiz()
    await settle()
    await link.set(false)
    await user().click(screen.getByRole('radio', { name: /Choice 1 for 1/ }))
    await settle(30_000)
    expect(
      screen.getByText(
        'Time is up. You are offline: your answers are kept on this device and will be submitted when the connection returns.',
      ),
    ).toBeVisible()
    expect(screen.getByRole('radio', { name: /Choice 2 for 1/ })).toBeDisabled()
    expect(net.callsTo('POST', `/api/quizzes/${QUIZ_ID}/submit/`)).toHaveLength(0)

    await link.set(true)
    await settle()
    const submits = net.callsTo('POST', `/api/quizzes/${QUIZ_ID}/submit/`)
    expect(submits).toHaveLength(1)
    expect(submits[0]!.body).toMatchObject({ answers: { '101': 1011 }, attempt_id: ATTEMPT_ID })
    expect(screen.getByRole('dialog', { name: 'Time is up: quiz submitted' })).toBeInTheDocument()
    await settle()
    expect(Object.keys(localStorage).filter((key) => key.startsWith('quiz-'))).toEqual([])
    expect(localStorage.getItem(clockStorageKey(QUIZ_ID, ATTEMPT_ID))).toBeNull()
    expect(await loadAttempt(0, QUIZ_ID)).toBeUndefined()
    expect(await loadQuestion(ATTEMPT_ID, 1)).toBeUndefined()
  })

  it('says so when the quiz was never opened on this device and there is no connection', async () => {
    const link = connection()
    await link.set(false)
    network({ start: link.through(() => ({ body: makeSession() })) })
    renderQuiz()
    await settle()
    await settle(5000)
    expect(screen.getByRole('alert')).toHaveTextContent(
      'You are offline, and this quiz is not on this device yet. Connect to the internet to open it.',
    )
  })
})
