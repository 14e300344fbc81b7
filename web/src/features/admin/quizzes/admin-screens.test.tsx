import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../../test/render'
import { Component as AdminPage } from './admin-page'
import { Component as QuizEditPage } from './quiz-edit-page'

function jsonResponse(status: number, body?: unknown) {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}

const quizzes = [
  {
    id: 2,
    title: { en: 'Open Quiz', ne: 'खुला क्विज' },
    start_time: '2026-11-22T07:00:00.000Z',
    end_time: null,
    duration_minutes: 90,
    difficulty: 'medium',
    is_paid_tier: true,
    allowed_attempts: 3,
    question_count: 1,
    live: null,
    status: 'published',
  },
  {
    id: 1,
    title: { en: 'Closed Quiz', ne: '' },
    start_time: '2026-11-01T07:00:00.000Z',
    end_time: '2026-11-02T07:00:00.000Z',
    duration_minutes: 30,
    difficulty: 'hard',
    is_paid_tier: false,
    allowed_attempts: 1,
    question_count: 12,
    live: null,
    status: 'published',
  },
]

/** Answers by "METHOD path"; anything else fails the test. */
function serve(routes: Record<string, () => Response>) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`
    const answer = routes[key]
    if (!answer) throw new Error(`unexpected request ${key}`)
    return answer()
  })
}

describe('Admin Dashboard', () => {
  it('lists every quiz with its period, "No end" for an open one', async () => {
    serve({ 'GET /api/admin/quizzes/': () => jsonResponse(200, quizzes) })
    renderWithProviders(<AdminPage />)
    expect(screen.getByText('Loading quizzes...')).toBeInTheDocument()
    const items = await screen.findAllByRole('listitem')
    expect(within(items[0]!).getByRole('heading', { name: 'Open Quiz' })).toBeInTheDocument()
    expect(within(items[0]!).getByText(/ - No end$/)).toBeInTheDocument()
    expect(within(items[0]!).getByText('Paid')).toBeInTheDocument()
    expect(within(items[1]!).queryByText(/No end/)).not.toBeInTheDocument()
    expect(within(items[1]!).getByText('12 questions')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Edit Closed Quiz' })).toHaveAttribute('href', '/admin/quiz/1/edit')
    expect(screen.getByRole('link', { name: '+ Create New Quiz (JSON)' })).toHaveAttribute('href', '/admin/quiz/new')
  })

  it('shows titles and messages in Nepali, falling back to English', async () => {
    serve({ 'GET /api/admin/quizzes/': () => jsonResponse(200, quizzes) })
    renderWithProviders(<AdminPage />, { language: 'ne' })
    expect(await screen.findByRole('heading', { name: 'खुला क्विज' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Closed Quiz' })).toBeInTheDocument()
    expect(screen.getByText(/ - अन्त्य छैन$/)).toBeInTheDocument()
  })

  it('shows the empty state and the load failure', async () => {
    const empty = serve({ 'GET /api/admin/quizzes/': () => jsonResponse(200, []) })
    const first = renderWithProviders(<AdminPage />)
    expect(await screen.findByText('No quizzes found. Create one to get started!')).toBeInTheDocument()
    first.unmount()
    empty.mockRestore()
    serve({ 'GET /api/admin/quizzes/': () => jsonResponse(403, { detail: 'No.', code: 'permission_denied' }) })
    renderWithProviders(<AdminPage />)
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load quizzes.')
  })

  it('asks before deleting, and says so when the delete fails', async () => {
    const fetch = serve({
      'GET /api/admin/quizzes/': () => jsonResponse(200, quizzes),
      'DELETE /api/admin/quizzes/1/': () => jsonResponse(500, { detail: 'Boom.', code: 'server_error' }),
    })
    const user = userEvent.setup()
    renderWithProviders(<AdminPage />)
    await user.click(await screen.findByRole('button', { name: 'Delete Closed Quiz' }))
    expect(screen.getByText('Are you sure you want to delete this quiz permanently?')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Cancel', hidden: true }))
    expect(fetch).not.toHaveBeenCalledWith('/api/admin/quizzes/1/', expect.anything())

    await user.click(screen.getByRole('button', { name: 'Delete Closed Quiz' }))
    await user.click(screen.getByRole('button', { name: 'Delete', hidden: true }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to delete the quiz.')
    expect(fetch).toHaveBeenCalledWith('/api/admin/quizzes/1/', expect.objectContaining({ method: 'DELETE' }))
  })
})

function renderEditPage(id: string, language: 'en' | 'ne' = 'en') {
  return renderWithProviders(
    <Routes>
      <Route path="/admin/quiz/:quizId/edit" element={<QuizEditPage />} />
    </Routes>,
    { route: `/admin/quiz/${id}/edit`, language },
  )
}

describe('Edit quiz page', () => {
  it('says "Quiz not found." on 404', async () => {
    serve({ 'GET /api/admin/quizzes/5/': () => jsonResponse(404, { detail: 'Not found.', code: 'not_found' }) })
    renderEditPage('5')
    expect(screen.getByText('Loading quiz details...')).toBeInTheDocument()
    expect(await screen.findByRole('alert')).toHaveTextContent('Quiz not found.')
  })

  it('says the quiz may not exist on any other failure', async () => {
    serve({ 'GET /api/admin/quizzes/5/': () => jsonResponse(500, { detail: 'Boom.', code: 'server_error' }) })
    renderEditPage('5')
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load quiz. It may not exist.')
  })

  it('says "Quiz not found." for an id that cannot be one, without asking the server', () => {
    const fetch = serve({})
    renderEditPage('abc')
    expect(screen.getByRole('alert')).toHaveTextContent('Quiz not found.')
    expect(fetch).not.toHaveBeenCalled()
  })

  it('fills the details form in local time with the stored values and lists the questions', async () => {
    serve({
      'GET /api/admin/quizzes/2/': () =>
        jsonResponse(200, {
          ...quizzes[0],
          questions: [
            { id: 9, text: { en: 'x'.repeat(100), ne: '' }, hint: null, topic: '', image: null, options: [] },
            { id: 10, text: { en: 'Short', ne: '' }, hint: null, topic: '', image: null, options: [] },
          ],
        }),
    })
    renderEditPage('2')
    expect(await screen.findByRole('heading', { name: 'Edit Quiz: Open Quiz' })).toBeInTheDocument()
    expect(screen.getByLabelText('Title (Nepali)')).toHaveValue('खुला क्विज')
    const local = new Date('2026-11-22T07:00:00.000Z')
    const pad = (n: number) => String(n).padStart(2, '0')
    expect(screen.getByLabelText('Start Time')).toHaveValue(
      `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}T${pad(local.getHours())}:${pad(local.getMinutes())}`,
    )
    expect(screen.getByLabelText('End Time')).toHaveValue('')
    expect(screen.getByLabelText('Duration (Mins)')).toHaveValue(90)
    expect(screen.getByLabelText('Difficulty')).toHaveValue('medium')
    expect(screen.getByLabelText('Paid Tier Quiz')).toBeChecked()
    expect(screen.getByText(`Q1: ${'x'.repeat(80)}...`)).toBeInTheDocument()
    expect(screen.getByText('Q2: Short')).toBeInTheDocument()
  })
})

describe('quiz details form', () => {
  const stored = { ...quizzes[0], questions: [] }

  /** Serves the stored quiz and refuses its PATCH with these field errors; `sent()` is the PATCH's body. */
  function refusePatch(errors: Record<string, string[]>) {
    let patch: Record<string, unknown> = {}
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      if (init?.method !== 'PATCH') return jsonResponse(200, stored)
      patch = JSON.parse(init.body as string)
      return jsonResponse(400, { detail: 'Invalid input.', code: 'validation_error', errors })
    })
    return { fetch, sent: () => patch }
  }

  it("sends an empty title and out-of-range numbers as typed, and shows the server's messages on them, in Nepali", async () => {
    const { fetch, sent } = refusePatch({
      'title.en': ['This field may not be blank.'],
      duration_minutes: ['Duration must be a whole number of minutes from 1 to 1440.'],
      allowed_attempts: ['This field may not be null.'],
    })
    const user = userEvent.setup()
    renderEditPage('2', 'ne')
    const title = await screen.findByLabelText('शीर्षक (अंग्रेजी)')
    await user.clear(title)
    const duration = screen.getByLabelText('अवधि (मिनेट)')
    await user.clear(duration)
    await user.type(duration, '0')
    await user.clear(screen.getByLabelText('अनुमति दिइएका प्रयास'))
    await user.click(screen.getByRole('button', { name: 'विवरण सुरक्षित गर्नुहोस्' }))

    expect(await screen.findByRole('alert')).toHaveTextContent('क्विज विवरण अद्यावधिक गर्दा त्रुटि भयो।')
    expect(fetch).toHaveBeenCalledTimes(2)
    expect(sent()).toMatchObject({ title: { en: '' }, duration_minutes: 0, allowed_attempts: null })
    expect(title).toHaveAttribute('aria-invalid', 'true')
    expect(title).toHaveAccessibleDescription('यो विवरण खाली छोड्न मिल्दैन।')
    // The focus moves in an effect, after the frame that shows the messages.
    await waitFor(() => expect(title).toHaveFocus())
    expect(duration).toHaveAccessibleDescription('अवधि १ देखि १४४० सम्मको पूर्ण मिनेट हुनुपर्छ।')
    expect(screen.getByLabelText('अनुमति दिइएका प्रयास')).toHaveAccessibleDescription('यो विवरण खाली हुन सक्दैन।')
  })

  it("puts the server's field errors beside their fields and sends the stored start unchanged", async () => {
    const { fetch, sent } = refusePatch({
      'title.ne': ['Ensure this field has no more than 300 characters.'],
      end_time: ['Too late.'],
    })
    const user = userEvent.setup()
    renderEditPage('2')
    await user.click(await screen.findByRole('button', { name: 'Save Details' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Error updating quiz details.')
    expect(screen.getByLabelText('Title (Nepali)')).toHaveAccessibleDescription(
      'Ensure this field has no more than 300 characters.',
    )
    expect(screen.getByLabelText('End Time')).toHaveAccessibleDescription('Leave empty for no end. Too late.')
    await waitFor(() => expect(screen.getByLabelText('Title (Nepali)')).toHaveFocus())
    expect(fetch).toHaveBeenCalledTimes(2)
    expect(sent()).toMatchObject({ start_time: stored.start_time, end_time: null, duration_minutes: 90 })
  })

  it('sends the minutes for photos after the end as typed (15 when the quiz has none) and shows their refusal', async () => {
    const message = 'Minutes of grace for photos are a whole number from 0 to 60.'
    const { sent } = refusePatch({ upload_grace_minutes: [message] })
    const user = userEvent.setup()
    renderEditPage('2')
    const minutes = await screen.findByLabelText('Minutes for photos after the end')
    expect(minutes).toHaveValue(15)
    await user.clear(minutes)
    await user.type(minutes, '90')
    await user.click(screen.getByRole('button', { name: 'Save Details' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Error updating quiz details.')
    expect(sent()).toMatchObject({ upload_grace_minutes: 90 })
    expect(minutes).toHaveAccessibleDescription(expect.stringContaining(message))
  }, 20_000)

  it('sends the challenge days as typed (7 when the quiz has none) and shows their refusal beside the field', async () => {
    const message = 'Challenge days must be a whole number from 0 to 60.'
    const { sent } = refusePatch({ challenge_days: [message] })
    const user = userEvent.setup()
    renderEditPage('2')
    const days = await screen.findByLabelText('Challenge days')
    expect(days).toHaveValue(7)
    await user.clear(days)
    await user.type(days, '61')
    await user.click(screen.getByRole('button', { name: 'Save Details' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Error updating quiz details.')
    expect(sent()).toMatchObject({ challenge_days: 61 })
    expect(days).toHaveAttribute('aria-invalid', 'true')
    expect(days).toHaveAccessibleDescription(expect.stringContaining(message))
  }, 20_000)

  it("makes a quiz a live mock: start and join minutes sent as typed, the server's refusals on their fields", async () => {
    const { sent } = refusePatch({
      'live.starts_at': ['A live mock must start at or after the quiz opens.'],
      'live.join_minutes': ['Join minutes must be a whole number from 1 to 180.'],
    })
    const user = userEvent.setup()
    renderEditPage('2')
    const live = await screen.findByRole('checkbox', { name: 'Live mock' })
    expect(live).not.toBeChecked()
    expect(screen.queryByLabelText('Live mock start')).not.toBeInTheDocument()
    await user.click(live)
    fireEvent.change(screen.getByLabelText('Live mock start'), { target: { value: '2026-11-22T10:00' } })
    const minutes = screen.getByLabelText('Join window (minutes)')
    expect(minutes).toHaveValue(15)
    await user.clear(minutes)
    await user.type(minutes, '200')
    await user.click(screen.getByRole('button', { name: 'Save Details' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Error updating quiz details.')
    expect(sent()).toMatchObject({
      live: { starts_at: new Date(2026, 10, 22, 10, 0).toISOString(), join_minutes: 200 },
    })
    expect(screen.getByLabelText('Live mock start')).toHaveAccessibleDescription(
      expect.stringContaining('A live mock must start at or after the quiz opens.'),
    )
    expect(minutes).toHaveAttribute('aria-invalid', 'true')
    expect(minutes).toHaveAccessibleDescription(
      expect.stringContaining('Join minutes must be a whole number from 1 to 180.'),
    )
  }, 20_000)

  it("shows a live mock's schedule, keeps its stored start, and unticking sends live: null; messages in Nepali", async () => {
    const schedule = { starts_at: '2026-11-22T04:15:30.000Z', join_minutes: 20 }
    let patch: Record<string, unknown> = {}
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      if (init?.method !== 'PATCH') return jsonResponse(200, { ...stored, live: schedule })
      patch = JSON.parse(init.body as string)
      return jsonResponse(400, {
        detail: 'Invalid input.',
        code: 'validation_error',
        errors: { 'live.join_minutes': ['Join minutes must be a whole number from 1 to 180.'] },
      })
    })
    const user = userEvent.setup()
    renderEditPage('2', 'ne')
    const live = await screen.findByRole('checkbox', { name: 'लाइभ मक' })
    expect(live).toBeChecked()
    expect(screen.getByLabelText('सहभागी हुने समय (मिनेट)')).toHaveValue(20)
    await user.click(screen.getByRole('button', { name: 'विवरण सुरक्षित गर्नुहोस्' }))
    await waitFor(() => expect(patch).toMatchObject({ live: schedule }))
    expect(await screen.findByLabelText('सहभागी हुने समय (मिनेट)')).toHaveAccessibleDescription(
      expect.stringContaining('सहभागी हुने मिनेट १ देखि १८० सम्मको पूर्ण सङ्ख्या हुनुपर्छ।'),
    )
    await user.click(live)
    await user.click(screen.getByRole('button', { name: 'विवरण सुरक्षित गर्नुहोस्' }))
    await waitFor(() => expect(patch).toMatchObject({ live: null }))
  }, 20_000)
})
