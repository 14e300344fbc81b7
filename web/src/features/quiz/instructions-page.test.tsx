import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, renderRoutes } from '../../test/page-test-utils'
import { Component as InstructionsPage } from './instructions-page'
import type { QuizListItem } from '@quiz/contracts'
import { startState } from '@quiz/contracts/rules/start'

function quiz(overrides: Partial<QuizListItem> = {}): QuizListItem {
  return {
    id: 5,
    title: { en: 'Loksewa Practice', ne: 'लोकसेवा अभ्यास' },
    duration_minutes: 45,
    difficulty: 'hard',
    is_paid_tier: false,
    allowed_attempts: 3,
    remaining_attempts: 2,
    has_attempt_in_progress: false,
    can_start: true,
    start_time: '2026-11-01T00:00:00.000Z',
    end_time: null,
    question_count: 25,
    sections: [],
    live: null,
    registered: false,
    ...overrides,
  }
}

function renderInstructions(
  list: QuizListItem[] | { status: number },
  { language = 'en' as 'en' | 'ne', id = 5 } = {},
) {
  fakeNetwork({
    'GET /api/quizzes/': () =>
      Array.isArray(list) ? { body: list } : { status: list.status, body: { detail: 'x', code: 'server_error' } },
  })
  return renderRoutes([page(InstructionsPage, '/quiz/:quizId/instructions')], {
    path: `/quiz/${id}/instructions`,
    language,
  })
}

afterEach(() => vi.unstubAllGlobals())

describe('startState', () => {
  it('starts, resumes, or says why not', () => {
    expect(startState(quiz())).toBe('start')
    expect(startState(quiz({ has_attempt_in_progress: true, remaining_attempts: 0 }))).toBe('resume')
    expect(startState(quiz({ can_start: false, remaining_attempts: 0 }))).toBe('no_attempts')
    expect(startState(quiz({ can_start: false, is_paid_tier: true, remaining_attempts: 3 }))).toBe('paid_only')
    expect(startState(quiz({ can_start: false, is_paid_tier: true, remaining_attempts: 0 }))).toBe('no_attempts')
  })
})

describe('instructions page', () => {
  it('shows both titles, duration, marking scheme, attempts, the rules and the legend, and starts', async () => {
    renderInstructions([quiz()])
    expect(await screen.findByRole('heading', { level: 1, name: 'Loksewa Practice' })).toBeInTheDocument()
    expect(screen.getByText('लोकसेवा अभ्यास')).toHaveAttribute('lang', 'ne')
    expect(screen.getByText('45 minutes')).toBeInTheDocument()
    expect(screen.getByText('2 of 3')).toBeInTheDocument()
    expect(screen.getByText('+1')).toBeInTheDocument()
    expect(screen.getByText('-0.2')).toBeInTheDocument()
    expect(screen.getByText(/for each unanswered question \(no penalty\)/)).toBeInTheDocument()
    expect(screen.getByText(/The timer starts when you press Start Quiz/)).toBeInTheDocument()
    expect(screen.getByText(/you cannot change your answers after you submit/)).toBeInTheDocument()
    expect(screen.getByText(/Mark for Review flags a question to come back to/)).toBeInTheDocument()
    for (const state of [
      'Not visited',
      'Not answered',
      'Answered',
      'Marked for review (not answered)',
      'Answered and marked for review (will be evaluated)',
      'Blue ring: the current question',
    ]) {
      expect(screen.getByText(state)).toBeInTheDocument()
    }
    expect(screen.getByRole('link', { name: 'Start Quiz' })).toHaveAttribute('href', '/quiz/5')
  })

  it('disables Start with the alert when no attempts remain', async () => {
    renderInstructions([quiz({ can_start: false, remaining_attempts: 0 })])
    expect(await screen.findByRole('alert')).toHaveTextContent('You have no attempts remaining for this quiz.')
    expect(screen.getByRole('button', { name: 'Start Quiz' })).toBeDisabled()
    expect(screen.queryByRole('link', { name: 'Start Quiz' })).not.toBeInTheDocument()
  })

  it('offers Resume Quiz for an attempt in progress, even with no attempts left', async () => {
    renderInstructions([quiz({ has_attempt_in_progress: true, remaining_attempts: 0 })])
    expect(await screen.findByRole('link', { name: 'Resume Quiz' })).toHaveAttribute('href', '/quiz/5')
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('disables Start for a paid quiz without paid access', async () => {
    renderInstructions([quiz({ is_paid_tier: true, can_start: false })])
    expect(await screen.findByRole('alert')).toHaveTextContent('This quiz is for paid members.')
    expect(screen.getByText('Paid')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Start Quiz' })).toBeDisabled()
  })

  it('says the quiz is gone when it is not in the list', async () => {
    renderInstructions([quiz({ id: 6 })])
    expect(await screen.findByRole('alert')).toHaveTextContent('Quiz not found or is no longer active.')
  })

  it('says the information could not be loaded', async () => {
    renderInstructions({ status: 500 })
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load quiz information.')
  })

  it('speaks Nepali', async () => {
    renderInstructions([quiz({ can_start: false, remaining_attempts: 0 })], { language: 'ne' })
    expect(await screen.findByRole('alert')).toHaveTextContent('यस क्विजका लागि तपाईंको कुनै प्रयास बाँकी छैन।')
    expect(screen.getByText('३ मध्ये ०')).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1, name: 'Loksewa Practice' })).toBeInTheDocument()
  })
})
