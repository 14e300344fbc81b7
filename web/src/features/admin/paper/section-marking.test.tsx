import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { answerFetch, polyfillDialog, signInAs, type SentRequest } from '../../../test/page-test-utils'
import { renderWithProviders } from '../../../test/render'
import { paperDraft, toSectionsPayload } from './paper-draft'
import { Component as PaperPage } from './paper-page'

// A section's marking of several-option and numeric questions, its presets, passages as items and whole-passage
// draws (WEB.md "Question types on the screens", API.md "Question types").

vi.setConfig({ testTimeout: 20_000 })

const passage = {
  id: 9,
  text: { en: 'Read: the Koshi rises in Tibet.', ne: '', html: null },
  image: null,
  question_ids: [3, 4],
}

const quiz = {
  id: 5,
  title: { en: 'JEE mock', ne: '' },
  start_time: '2026-11-22T07:00:00.000Z',
  end_time: null,
  duration_minutes: 45,
  difficulty: 'medium',
  is_paid_tier: false,
  allowed_attempts: 3,
  shuffle_questions: false,
  shuffle_options: false,
  question_count: 1,
  questions: [{ id: 1, text: { en: 'Which are prime?', ne: '' }, hint: null, topic: '', image: null, options: [] }],
  draw_mode: 'frozen',
  warnings: [],
  sections: [
    {
      id: 10,
      title: { en: 'Physics', ne: 'भौतिक' },
      marks_correct: 1,
      marks_wrong: 0.2,
      time_limit_minutes: null,
      multiple: { scheme: 'all_or_nothing', partial_marks: 1 },
      numeric_negative: true,
      items: [{ question_id: 1 }],
    },
  ],
}

let handler: (key: string, body: unknown) => { status: number; body: unknown }
const sent: SentRequest[] = []
function standard(key: string): { status: number; body: unknown } {
  if (key === 'GET /api/admin/quizzes/5/') return { status: 200, body: quiz }
  if (key === 'GET /api/admin/bank/facets/')
    return { status: 200, body: { topics: [], tags: [], sources: [], total: 0 } }
  if (key.startsWith('GET /api/admin/bank/passages/?')) return { status: 200, body: { count: 1, results: [passage] } }
  if (key === 'PUT /api/admin/quizzes/5/sections/') return { status: 200, body: quiz }
  if (key.startsWith('GET /api/admin/bank/questions/?')) return { status: 200, body: { count: 0, results: [] } }
  throw new Error(`unexpected ${key}`)
}

beforeEach(() => {
  polyfillDialog()
  signInAs({ username: 'boss', is_admin: true })
  sent.length = 0
  handler = standard
  answerFetch((key, body) => handler(key, body), sent)
})
afterEach(() => vi.unstubAllGlobals())

const renderPaper = (language: 'en' | 'ne' = 'en') =>
  renderWithProviders(
    <Routes>
      <Route path="/admin/quiz/:quizId/paper" element={<PaperPage />} />
    </Routes>,
    { route: '/admin/quiz/5/paper', language },
  )

const puts = () => sent.filter((request) => request.key === 'PUT /api/admin/quizzes/5/sections/')

describe('the paper model with the new types', () => {
  it('reads and sends a section marking, a passage item and a whole-passage draw', () => {
    const draft = paperDraft({
      ...quiz,
      sections: [
        {
          ...quiz.sections[0]!,
          multiple: { scheme: 'partial', partial_marks: 1 },
          numeric_negative: false,
          items: [
            { passage_id: 9, question_ids: [3, 4] },
            {
              draw: { topic: null, tags: [], difficulty: null, source: null, type: null, count: 4, passages: true },
              pool: 6,
              drawn: [],
            },
          ],
        },
      ],
    } as never)
    const [section] = toSectionsPayload(draft).sections
    expect(section).toMatchObject({
      multiple: { scheme: 'partial', partial_marks: 1 },
      numeric_negative: false,
      items: [{ passage_id: 9 }, { draw: { passages: true, count: 4 } }],
    })
  })
})

describe('a section of the paper tab', () => {
  it('applies the JEE Advanced preset, adds a passage as one item and saves them', async () => {
    const user = userEvent.setup()
    renderPaper()
    await screen.findByRole('heading', { name: '1. Physics' })
    const marking = screen.getByRole('group', { name: 'Questions with several right options' })
    expect(within(marking).getByRole('radio', { name: 'All or nothing' })).toBeChecked()
    await user.click(within(marking).getByRole('button', { name: 'JEE Advanced' }))
    expect(within(marking).getByRole('radio', { name: /Partial/ })).toBeChecked()
    expect(within(marking).getByLabelText('Marks per right option')).toHaveValue('1')
    expect(within(marking).getByRole('checkbox', { name: 'Wrong numeric answers lose marks' })).not.toBeChecked()
    expect(screen.getByLabelText('Marks for a right answer')).toHaveValue('4')
    expect(screen.getByLabelText('Marks taken off for a wrong answer')).toHaveValue('2')

    await user.click(screen.getByRole('button', { name: 'Add a passage' }))
    const dialog = await screen.findByRole('dialog', { name: 'Add a passage to Physics' })
    await user.click(await within(dialog).findByRole('button', { name: 'Add' }))
    expect(screen.getByText('Passage 1')).toBeInTheDocument()
    expect(screen.getByText('2 questions')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Save Paper' }))
    await waitFor(() => expect(puts()).toHaveLength(1))
    const [section] = (puts()[0]!.body as { sections: unknown[] }).sections
    expect(section).toMatchObject({
      marks_correct: 4,
      marks_wrong: 2,
      multiple: { scheme: 'partial', partial_marks: 1 },
      numeric_negative: false,
      items: [{ question_id: 1 }, { passage_id: 9 }],
    })
  })

  it('applies GATE, shows a refusal of the partial marks at its field, and reads in Nepali', async () => {
    const user = userEvent.setup()
    handler = (key) =>
      key === 'PUT /api/admin/quizzes/5/sections/'
        ? {
            status: 400,
            body: {
              detail: 'Invalid input.',
              errors: { 'sections.0.multiple.partial_marks': ['Partial marks may not exceed the marks.'] },
            },
          }
        : standard(key)
    renderPaper('ne')
    await screen.findByRole('heading', { name: /भौतिक/ })
    const marking = screen.getByRole('group', { name: 'एकभन्दा बढी सही विकल्प भएका प्रश्न' })
    await user.click(within(marking).getByRole('radio', { name: /आंशिक/ }))
    const partial = within(marking).getByLabelText('हरेक सही विकल्पको अङ्क')
    await user.clear(partial)
    await user.type(partial, '5')
    await user.click(within(marking).getByRole('button', { name: 'GATE' }))
    expect(within(marking).getByRole('radio', { name: 'सबै वा केही पनि होइन' })).toBeChecked()
    await user.click(within(marking).getByRole('radio', { name: /आंशिक/ }))
    await user.click(screen.getByRole('button', { name: /सुरक्षित/ }))
    const field = await within(marking).findByLabelText('हरेक सही विकल्पको अङ्क')
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'))
  })
})
