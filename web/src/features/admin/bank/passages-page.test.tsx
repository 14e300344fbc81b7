import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { answerFetch, polyfillDialog, signInAs, type SentRequest } from '../../../test/page-test-utils'
import { renderWithProviders } from '../../../test/render'
import { Component as PassagesPage } from './passages-page'

// The bank's passages (WEB.md "Question types on the screens", API.md "Question types").

vi.setConfig({ testTimeout: 20_000 })

const passage = {
  id: 9,
  text: { en: 'The Koshi rises in Tibet.', ne: 'कोशी तिब्बतबाट निस्कन्छ।', html: null },
  image: null,
  question_ids: [3, 4],
}
const question = (id: number) => ({
  id,
  revision_id: id * 10,
  text: { en: `Question ${id} about the Koshi`, ne: '', html: null },
  hint: null,
  topic: '',
  image: null,
  options: [],
  key: null,
  type: 'choice',
  answer: null,
  decimals: null,
  marks: null,
  word_limit: null,
  model_answer: null,
})

let handler: (key: string, body: unknown) => { status: number; body: unknown }
const sent: SentRequest[] = []
function standard(key: string): { status: number; body: unknown } {
  if (key.startsWith('GET /api/admin/bank/passages/?')) return { status: 200, body: { count: 1, results: [passage] } }
  const one = /^GET \/api\/admin\/bank\/questions\/(\d+)\/$/.exec(key)
  if (one) return { status: 200, body: question(Number(one[1])) }
  if (key === 'PUT /api/admin/bank/passages/9/') return { status: 200, body: passage }
  if (key === 'PUT /api/admin/bank/passages/9/questions/') return { status: 200, body: passage }
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

const renderPage = (language: 'en' | 'ne' = 'en') =>
  renderWithProviders(
    <Routes>
      <Route path="/admin/bank/passages" element={<PassagesPage />} />
    </Routes>,
    { route: '/admin/bank/passages?search=Koshi', language },
  )

describe('the passages list', () => {
  it('searches, lists and edits a passage: reorders its questions and saves them in order', async () => {
    const user = userEvent.setup()
    renderPage()
    expect(await screen.findByText('The Koshi rises in Tibet.')).toBeInTheDocument()
    expect(sent.some((request) => request.key.includes('search=Koshi'))).toBe(true)
    await user.click(screen.getByRole('button', { name: 'Edit' }))
    expect(screen.getByRole('heading', { name: 'Edit the passage' })).toHaveFocus()
    expect(screen.getByLabelText('Passage (English)')).toHaveValue('The Koshi rises in Tibet.')
    expect(await screen.findByText('Question 4 about the Koshi')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Move question 2 up' }))
    await user.click(screen.getByRole('button', { name: 'Save the passage' }))
    expect(await screen.findByText('Passage saved.')).toBeInTheDocument()
    const questions = sent.find((request) => request.key === 'PUT /api/admin/bank/passages/9/questions/')
    expect(questions?.body).toEqual({ question_ids: [4, 3] })
  })

  it('names a question of another passage at its row (409 in_another_passage)', async () => {
    const user = userEvent.setup()
    handler = (key) =>
      key === 'PUT /api/admin/bank/passages/9/questions/'
        ? {
            status: 409,
            body: {
              code: 'in_another_passage',
              detail: 'A question may belong to one passage only.',
              errors: { 'question_ids.1': ['A question may belong to one passage only.'] },
            },
          }
        : standard(key)
    renderPage()
    await user.click(await screen.findByRole('button', { name: 'Edit' }))
    await user.click(screen.getByRole('button', { name: 'Save the passage' }))
    expect(
      await screen.findByText('Question #4 is already in another passage: take it out of that passage first.'),
    ).toBeInTheDocument()
    expect(screen.getByRole('alert')).toHaveTextContent('The passage was not saved.')
  })

  it('says in a sentence, in Nepali, that a passage in a paper cannot be deleted (409 passage_in_use)', async () => {
    const user = userEvent.setup()
    handler = (key) =>
      key === 'DELETE /api/admin/bank/passages/9/'
        ? {
            status: 409,
            body: {
              code: 'passage_in_use',
              detail: "This passage is in a quiz's paper.",
              quizzes: [{ id: 5, title: { en: 'IOE mock', ne: 'आईओई नमुना' } }],
            },
          }
        : standard(key)
    renderPage('ne')
    await user.click(await screen.findByRole('button', { name: 'मेटाउनुहोस्' }))
    const dialog = await screen.findByRole('dialog')
    await user.click(within(dialog).getByRole('button', { name: /मेटाउनुहोस्|Delete/ }))
    await waitFor(() =>
      expect(screen.getByText('यो अनुच्छेद आईओई नमुनाको प्रश्नपत्रमा छ: पहिले ती प्रश्नपत्रबाट हटाउनुहोस्।')).toBeInTheDocument(),
    )
  })
})
