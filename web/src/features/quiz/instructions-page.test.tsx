import { screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
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

describe('instructions of a live mock', () => {
  // 10:00 to 12:00 in Nepal on 22 November 2026, joinable until 10:15.
  const live = {
    starts_at: '2026-11-22T04:15:00.000Z',
    join_minutes: 15,
    join_ends_at: '2026-11-22T04:30:00.000Z',
    ends_at: '2026-11-22T06:15:00.000Z',
    status: 'running' as const,
  }
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
    vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) })
  })
  afterEach(() => vi.useRealTimers())

  it('in the join window: joins until when, a late start leaves less time, all finish at the common end', async () => {
    vi.setSystemTime('2026-11-22T04:20:00.000Z')
    renderInstructions([quiz({ live, duration_minutes: 120 })])
    const note = await screen.findByRole('region', { name: 'Live mock' })
    expect(note).toHaveTextContent('It starts at 22 Nov 2026, 10:00 NPT. You can join until 10:15 NPT.')
    expect(note).toHaveTextContent(
      'A late start leaves less time: everyone finishes at 12:00 NPT, whenever they began.',
    )
    expect(screen.getByRole('link', { name: 'Start Quiz' })).toHaveAttribute('href', '/quiz/5')
  })

  it('before the start: Start off until the start time', async () => {
    vi.setSystemTime('2026-11-22T04:00:00.000Z')
    renderInstructions([quiz({ live: { ...live, status: 'upcoming' }, can_start: false, remaining_attempts: 3 })])
    expect(await screen.findByText('Start opens at 10:00 NPT.')).toHaveRole('status')
    expect(screen.getByRole('button', { name: 'Start Quiz' })).toBeDisabled()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('after the join window: closed until the end', async () => {
    vi.setSystemTime('2026-11-22T05:00:00.000Z')
    renderInstructions([quiz({ live, can_start: false })])
    expect(await screen.findByText(/^Running now: joining closed at 10:15 NPT\./)).toHaveRole('status')
    expect(screen.getByRole('button', { name: 'Start Quiz' })).toBeDisabled()
  })

  it('after the end: practice, unranked', async () => {
    vi.setSystemTime('2026-11-22T07:00:00.000Z')
    renderInstructions([quiz({ live: { ...live, status: 'provisional' } })])
    expect(await screen.findByRole('link', { name: 'Practice (unranked)' })).toHaveAttribute('href', '/quiz/5')
    expect(screen.getByRole('region', { name: 'Live mock' })).toHaveTextContent(
      'This live mock has ended: an attempt now is practice and is not ranked.',
    )
  })

  it('after the end while the key is withheld: Start off, practice opens once everyone has finished', async () => {
    vi.setSystemTime('2026-11-22T07:00:00.000Z')
    renderInstructions([quiz({ live: { ...live, status: 'provisional' }, can_start: false, remaining_attempts: 2 })])
    expect(
      await screen.findByText('This live mock has ended. Practice opens once everyone still sitting it has finished.'),
    ).toHaveRole('status')
    expect(screen.getByRole('button', { name: 'Start Quiz' })).toBeDisabled()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('in Nepali: Bikram Sambat and Nepal time in Devanagari digits', async () => {
    vi.setSystemTime('2026-11-22T04:20:00.000Z')
    renderInstructions([quiz({ live })], { language: 'ne' })
    const note = await screen.findByRole('region', { name: 'लाइभ मक' })
    expect(note).toHaveTextContent('यो २०८३ मंसिर ६, १०:०० मा सुरु हुन्छ। तपाईं १०:१५ सम्म सहभागी हुन सक्नुहुन्छ।')
    expect(note).toHaveTextContent('सबैको १२:०० मा सकिन्छ')
  })
})
