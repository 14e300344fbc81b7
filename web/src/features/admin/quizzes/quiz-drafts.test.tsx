import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../../test/render'
import { Component as AdminPage } from './admin-page'
import { Component as QuizEditPage } from './quiz-edit-page'
import { Component as QuizNewPage } from './quiz-new-page'

// API.md "Administration", bullet "Drafts": the New quiz form, the status badge, and Publish, Unpublish, Duplicate.

function jsonResponse(status: number, body?: unknown) {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}

const quiz = (id: number, status: 'draft' | 'published', extra: Record<string, unknown> = {}) => ({
  id,
  title: { en: `Mock ${id}`, ne: `नमुना ${id}` },
  start_time: '2026-11-22T07:00:00.000Z',
  end_time: null,
  duration_minutes: 90,
  difficulty: 'medium',
  is_paid_tier: false,
  allowed_attempts: 3,
  shuffle_questions: false,
  shuffle_options: false,
  challenge_days: 7,
  live: null,
  question_count: status === 'draft' ? 0 : 10,
  status,
  questions: [],
  sections: [],
  draw_mode: 'per_attempt',
  warnings: [],
  ...extra,
})

/** Answers by "METHOD path" and records what was sent; anything else fails the test. */
function serve(routes: Record<string, () => Response>) {
  const sent: { key: string; body: unknown }[] = []
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`
    sent.push({ key, body: init?.body ? JSON.parse(init.body as string) : undefined })
    const answer = routes[key]
    if (!answer) throw new Error(`unexpected request ${key}`)
    return answer()
  })
  return sent
}

function renderAt(route: string, language: 'en' | 'ne' = 'en') {
  return renderWithProviders(
    <Routes>
      <Route path="/admin/quiz/create" element={<QuizNewPage />} />
      <Route path="/admin/quiz/:quizId/edit" element={<QuizEditPage />} />
    </Routes>,
    { route, language },
  )
}

describe('the admin list', () => {
  it('shows each quiz as Draft or Published, and offers both ways to make one', async () => {
    serve({ 'GET /api/admin/quizzes/': () => jsonResponse(200, [quiz(2, 'draft'), quiz(1, 'published')]) })
    renderWithProviders(<AdminPage />)
    const items = await screen.findAllByRole('listitem')
    expect(within(items[0]!).getByText('Draft')).toBeInTheDocument()
    expect(within(items[1]!).getByText('Published')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: '+ New quiz' })).toHaveAttribute('href', '/admin/quiz/create')
    expect(screen.getByRole('link', { name: '+ Create New Quiz (JSON)' })).toHaveAttribute('href', '/admin/quiz/new')
  })

  it('says Draft and Published in Nepali', async () => {
    serve({ 'GET /api/admin/quizzes/': () => jsonResponse(200, [quiz(2, 'draft'), quiz(1, 'published')]) })
    renderWithProviders(<AdminPage />, { language: 'ne' })
    expect(await screen.findByText('ड्राफ्ट')).toBeInTheDocument()
    expect(screen.getByText('प्रकाशित')).toBeInTheDocument()
  })
})

describe('New quiz', () => {
  it('sends the details with SPEC.md defaults and opens the new draft', async () => {
    const sent = serve({
      'POST /api/admin/quizzes/': () => jsonResponse(201, quiz(7, 'draft', { title: { en: 'PSC prelim', ne: '' } })),
      'GET /api/admin/quizzes/7/': () => jsonResponse(200, quiz(7, 'draft', { title: { en: 'PSC prelim', ne: '' } })),
    })
    const user = userEvent.setup()
    renderAt('/admin/quiz/create')
    expect(screen.getByRole('heading', { name: 'New quiz' })).toBeInTheDocument()
    expect(screen.getByLabelText('Duration (Mins)')).toHaveValue(90)
    expect(screen.getByLabelText('Allowed Attempts')).toHaveValue(3)
    expect(screen.getByLabelText('Difficulty')).toHaveValue('medium')
    expect(screen.getByLabelText('End Time')).toHaveValue('')
    await user.type(screen.getByLabelText('Title (English)'), 'PSC prelim')
    await user.click(screen.getByRole('button', { name: 'Create draft' }))

    expect(await screen.findByRole('heading', { name: 'Edit Quiz: PSC prelim' })).toBeInTheDocument()
    const post = sent.find((request) => request.key === 'POST /api/admin/quizzes/')!
    expect(post.body).toMatchObject({
      title: { en: 'PSC prelim', ne: '' },
      start_time: expect.any(String),
      end_time: null,
      duration_minutes: 90,
      allowed_attempts: 3,
      difficulty: 'medium',
      is_paid_tier: false,
      challenge_days: 7,
      live: null,
    })
    expect(screen.getByText('Draft')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Publish' })).toBeInTheDocument()
  })

  it('puts the server’s refusal beside the field, in Nepali', async () => {
    serve({
      'POST /api/admin/quizzes/': () =>
        jsonResponse(400, {
          detail: 'Invalid input.',
          code: 'validation_error',
          errors: { 'title.en': ['This field may not be blank.'] },
        }),
    })
    const user = userEvent.setup()
    renderAt('/admin/quiz/create', 'ne')
    expect(screen.getByRole('heading', { name: 'नयाँ क्विज' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'ड्राफ्ट बनाउनुहोस्' }))
    expect(await screen.findByText('क्विज बनाउन सकिएन।')).toBeInTheDocument()
    expect(screen.getByLabelText('शीर्षक (अंग्रेजी)')).toHaveAttribute('aria-invalid', 'true')
  })
})

describe('Publish, Unpublish and Duplicate', () => {
  it('says in Nepali that an empty paper cannot be published', async () => {
    serve({
      'GET /api/admin/quizzes/3/': () => jsonResponse(200, quiz(3, 'draft')),
      'POST /api/admin/quizzes/3/publish/': () =>
        jsonResponse(409, { detail: 'Add at least one question.', code: 'paper_empty' }),
    })
    const user = userEvent.setup()
    renderAt('/admin/quiz/3/edit', 'ne')
    await user.click(await screen.findByRole('button', { name: 'प्रकाशित गर्नुहोस्' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'यो क्विजमा अझै प्रश्न छैनन्। प्रकाशित गर्नुअघि प्रश्नपत्रमा प्रश्न थप्नुहोस्।',
    )
  })

  it('publishes a draft, then offers Unpublish', async () => {
    serve({
      'GET /api/admin/quizzes/3/': () => jsonResponse(200, quiz(3, 'draft', { question_count: 5 })),
      'POST /api/admin/quizzes/3/publish/': () => jsonResponse(200, quiz(3, 'published')),
      'GET /api/admin/quizzes/': () => jsonResponse(200, []),
    })
    const user = userEvent.setup()
    renderAt('/admin/quiz/3/edit')
    await user.click(await screen.findByRole('button', { name: 'Publish' }))
    expect(await screen.findByText('The quiz is published: learners can see it now.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Unpublish' })).toBeInTheDocument()
    expect(screen.getByText('Published')).toBeInTheDocument()
  })

  it('says why a quiz learners have attempted cannot be unpublished', async () => {
    serve({
      'GET /api/admin/quizzes/4/': () => jsonResponse(200, quiz(4, 'published')),
      'POST /api/admin/quizzes/4/unpublish/': () => jsonResponse(409, { detail: 'No.', code: 'conflict' }),
    })
    const user = userEvent.setup()
    renderAt('/admin/quiz/4/edit')
    await user.click(await screen.findByRole('button', { name: 'Unpublish' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Learners have already attempted this quiz, so it cannot be unpublished.',
    )
  })

  it('duplicates a quiz and links to the draft copy', async () => {
    serve({
      'GET /api/admin/quizzes/4/': () => jsonResponse(200, quiz(4, 'published')),
      'POST /api/admin/quizzes/4/duplicate/': () => jsonResponse(201, quiz(9, 'draft')),
      'GET /api/admin/quizzes/9/': () => jsonResponse(200, quiz(9, 'draft')),
      'GET /api/admin/quizzes/': () => jsonResponse(200, []),
    })
    const user = userEvent.setup()
    renderAt('/admin/quiz/4/edit')
    await user.click(await screen.findByRole('button', { name: 'Duplicate' }))
    expect(await screen.findByText('A draft copy of this quiz was made.')).toBeInTheDocument()
    await user.click(screen.getByRole('link', { name: 'Open the copy' }))
    expect(await screen.findByRole('heading', { name: 'Edit Quiz: Mock 9' })).toBeInTheDocument()
  })
})
