import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { answerFetch, signInAs, type SentRequest } from '../../../test/page-test-utils'
import { renderWithProviders } from '../../../test/render'
import { newQuestionDraft, undescribedPictures } from '../quizzes/question-draft'
import { parseTags, toBankFields } from './bank-draft'
import { Component as BankPage } from './bank-page'

vi.setConfig({ testTimeout: 20_000 })

const row = (id: number, extra: object = {}) => ({
  id,
  text: { en: `Question ${id} about the constitution of Nepal`, ne: `प्रश्न ${id}` },
  topic: 'Constitution',
  tags: ['2081', 'Loksewa'],
  difficulty: 'easy',
  source: 'PSC 2081 prelim',
  option_count: 4,
  used_in: [{ quiz_id: 3, title: { en: 'Mock 1', ne: 'नमुना १' } }],
  responses: 40,
  facility: 0.725,
  ...extra,
})

const facets = {
  topics: [
    { topic: 'Constitution', easy: 10, medium: 5, hard: 2, unrated: 3, total: 20 },
    { topic: 'Geography', easy: 1, medium: 0, hard: 0, unrated: 1200, total: 1201 },
  ],
  tags: [{ tag: 'Loksewa', total: 12 }],
  sources: [{ source: 'PSC 2081 prelim', total: 9 }],
  total: 1221,
}

const quizzes = [{ id: 3, title: { en: 'Mock 1', ne: 'नमुना १' }, question_count: 5 }]

let handler: (key: string, body: unknown) => { status: number; body: unknown }
const sent: SentRequest[] = []
const listCalls = () => sent.filter((request) => request.key.startsWith('GET /api/admin/bank/questions/?'))

function standard(key: string, body: unknown): { status: number; body: unknown } {
  if (key.startsWith('GET /api/admin/bank/questions/?'))
    return {
      status: 200,
      body: {
        count: 2,
        results: [row(12), row(11, { used_in: [], facility: null, responses: 0, difficulty: null, tags: [] })],
      },
    }
  if (key === 'GET /api/admin/bank/facets/') return { status: 200, body: facets }
  if (key === 'GET /api/admin/quizzes/') return { status: 200, body: quizzes }
  if (key === 'POST /api/admin/quizzes/3/questions/') {
    const { question_id } = body as { question_id: number }
    return question_id === 11
      ? { status: 400, body: { detail: 'Invalid input.', errors: { question_id: ['Already in this paper.'] } } }
      : { status: 201, body: { id: question_id } }
  }
  throw new Error(`unexpected ${key}`)
}

beforeEach(() => {
  signInAs({ username: 'boss', is_admin: true })
  sent.length = 0
  handler = standard
  answerFetch((key, body) => handler(key, body), sent)
})
afterEach(() => vi.unstubAllGlobals())

const renderBank = (route = '/admin/bank', language: 'en' | 'ne' = 'en') =>
  renderWithProviders(
    <Routes>
      <Route path="/admin/bank" element={<BankPage />} />
    </Routes>,
    { route, language },
  )

describe('tags as typed', () => {
  it('splits on commas and semicolons, trims, drops empties and repeats in any case', () => {
    expect(parseTags(' Nepal; history, nepal ,,; ')).toEqual(['Nepal', 'history'])
    expect(toBankFields({ tags: '', difficulty: '', source: '  ', needs_sight: false })).toEqual({
      tags: [],
      difficulty: null,
      source: null,
    })
    expect(toBankFields({ tags: 'a;b', difficulty: 'hard', source: ' PSC ', needs_sight: true })).toEqual({
      tags: ['a', 'b'],
      difficulty: 'hard',
      source: 'PSC',
    })
  })

  it('sends "Needs sight" from the bank\'s form only: the quiz\'s question routes do not take it', () => {
    const draft = { tags: '', difficulty: '' as const, source: '', needs_sight: true }
    expect(toBankFields(draft, true)).toMatchObject({ needs_sight: true })
    expect(toBankFields({ ...draft, needs_sight: false }, true)).toMatchObject({ needs_sight: false })
    expect(toBankFields(draft)).not.toHaveProperty('needs_sight')
  })
})

describe('question bank page', () => {
  it('lists the bank with its count, facets and each row (preview, topic, tags, difficulty, use, facility)', async () => {
    renderBank()
    expect(await screen.findByText('2 questions')).toBeInTheDocument()
    expect(listCalls()[0]!.key).toBe('GET /api/admin/bank/questions/?page=1&page_size=50')
    const table = screen.getAllByRole('table').find((t) => t.classList.contains('bank-table'))!
    const rows = within(table).getAllByRole('row')
    expect(within(rows[1]!).getByText(/Question 12 about the constitution/)).toBeInTheDocument()
    expect(within(rows[1]!).getByText('2081, Loksewa')).toBeInTheDocument()
    expect(within(rows[1]!).getByText('Mock 1')).toBeInTheDocument()
    expect(within(rows[1]!).getByText('73% of 40')).toBeInTheDocument()
    expect(within(rows[2]!).getByText('Not used')).toBeInTheDocument()
    expect(within(rows[2]!).getByText('Unrated')).toBeInTheDocument()
    expect(within(rows[2]!).getByText('No answers yet')).toBeInTheDocument()
    const facetTable = await screen.findByRole('table', { name: /What the bank holds: 1,221 questions/ })
    expect(within(facetTable).getByRole('rowheader', { name: 'Geography' })).toBeInTheDocument()
    expect(within(facetTable).getByText('1,200')).toBeInTheDocument()
  })

  it('shows a question with maths rendered, not its TeX', async () => {
    const half = {
      en: 'Half is $\\frac{1}{2}$',
      ne: '',
      html: { en: 'Half is <math><mfrac><mn>1</mn><mn>2</mn></mfrac></math>', ne: '' },
    }
    handler = (key, body) =>
      key.startsWith('GET /api/admin/bank/questions/?')
        ? { status: 200, body: { count: 1, results: [row(12, { text: half })] } }
        : standard(key, body)
    renderBank()
    await screen.findByText(/Half is/)
    const bank = screen.getAllByRole('table').find((t) => t.classList.contains('bank-table'))!
    expect(bank.querySelector('math')).not.toBeNull()
    expect(bank).toHaveTextContent('Half is')
    expect(bank).not.toHaveTextContent('$')
  })

  it('filters by topic, difficulty (unrated as none), unused and search, starting again at page 1', async () => {
    const user = userEvent.setup()
    renderBank('/admin/bank?page=2')
    await screen.findByText('2 questions')
    expect(listCalls()[0]!.key).toContain('page=2&')
    await user.selectOptions(screen.getByLabelText('Topic'), 'Constitution')
    await user.selectOptions(screen.getByLabelText('Difficulty'), 'none')
    await user.click(screen.getByLabelText('Only questions in no quiz'))
    await user.type(screen.getByLabelText('Search question text'), 'सं')
    await user.click(screen.getByRole('button', { name: 'Search' }))
    await waitFor(() =>
      expect(listCalls().at(-1)!.key).toBe(
        `GET /api/admin/bank/questions/?search=${encodeURIComponent('सं')}&topic=Constitution&difficulty=none&unused=true&page=1&page_size=50`,
      ),
    )
    await user.click(screen.getByRole('button', { name: 'Clear filters' }))
    await waitFor(() => expect(listCalls().at(-1)!.key).toBe('GET /api/admin/bank/questions/?page=1&page_size=50'))
  })

  it('keeps ids= from an import in the request', async () => {
    renderBank('/admin/bank?ids=4,5')
    await screen.findByText('2 questions')
    expect(listCalls()[0]!.key).toBe(
      `GET /api/admin/bank/questions/?ids=${encodeURIComponent('4,5')}&page=1&page_size=50`,
    )
  })

  it('adds the selected rows to a chosen quiz one by one and says which were refused', async () => {
    const user = userEvent.setup()
    renderBank()
    await screen.findByText('2 questions')
    const add = screen.getByRole('button', { name: 'Add selected' })
    expect(add).toBeDisabled()
    await user.click(screen.getByRole('checkbox', { name: 'Select question 12' }))
    await user.click(screen.getByRole('checkbox', { name: 'Select question 11' }))
    expect(screen.getByText('2 questions selected')).toBeInTheDocument()
    await user.selectOptions(screen.getByLabelText('Add to quiz'), 'Mock 1')
    await user.click(add)
    expect(await screen.findByText(/1 question added to the quiz\. 1 was not added/)).toBeInTheDocument()
    const posts = sent.filter((request) => request.key === 'POST /api/admin/quizzes/3/questions/')
    expect(posts.map((request) => request.body)).toEqual([{ question_id: 12 }, { question_id: 11 }])
  })

  it('creates a bank question with tags, difficulty and source, and shows refusals on those fields', async () => {
    const user = userEvent.setup()
    let attempt = 0
    handler = (key, body) => {
      if (key === 'POST /api/admin/bank/questions/') {
        attempt += 1
        return attempt === 1
          ? {
              status: 400,
              body: {
                detail: 'Invalid input.',
                errors: { 'tags.0': ['Ensure this field has no more than 40 characters.'] },
              },
            }
          : { status: 201, body: { id: 99 } }
      }
      return standard(key, body)
    }
    renderBank()
    await screen.findByText('2 questions')
    await user.click(screen.getByRole('button', { name: '+ New Question' }))
    await user.type(screen.getByLabelText('Question (English)'), 'Who wrote Muna Madan?')
    await user.type(screen.getByLabelText('Tags'), 'Literature; poets, literature')
    await user.selectOptions(screen.getByLabelText('Difficulty', { selector: 'select[name="difficulty"]' }), 'medium')
    await user.type(screen.getByLabelText('Source', { selector: 'input' }), 'Class 10 model set 3')
    await user.click(screen.getByRole('button', { name: 'Save Question' }))
    expect(await screen.findByText('Ensure this field has no more than 40 characters.')).toBeInTheDocument()
    expect(screen.getByLabelText('Tags')).toHaveAttribute('aria-invalid', 'true')
    const first = sent.find((request) => request.key === 'POST /api/admin/bank/questions/')!.body as Record<
      string,
      unknown
    >
    expect(first).toMatchObject({ tags: ['Literature', 'poets'], difficulty: 'medium', source: 'Class 10 model set 3' })
    await user.click(screen.getByRole('button', { name: 'Save Question' }))
    expect(await screen.findByText('The question was saved.')).toBeInTheDocument()
  })

  it('edits a bank question opened from its row, with its stored tags', async () => {
    const user = userEvent.setup()
    handler = (key, body) => {
      if (key === 'GET /api/admin/bank/questions/12/')
        return {
          status: 200,
          body: {
            id: 12,
            text: { en: 'Q12', ne: '' },
            hint: null,
            topic: 'Constitution',
            image: null,
            tags: ['2081', 'Loksewa'],
            difficulty: 'easy',
            source: 'PSC',
            options: [
              { id: 1, text: { en: 'A', ne: '' }, is_correct: true, image: null },
              { id: 2, text: { en: 'B', ne: '' }, is_correct: false, image: null },
            ],
          },
        }
      if (key === 'PUT /api/admin/bank/questions/12/') return { status: 200, body: { id: 12 } }
      return standard(key, body)
    }
    renderBank()
    await screen.findByText('2 questions')
    await user.click(screen.getByRole('button', { name: 'Edit question 12' }))
    expect(await screen.findByLabelText('Tags')).toHaveValue('2081, Loksewa')
    await user.click(screen.getByRole('button', { name: 'Save Question' }))
    await waitFor(() =>
      expect(sent.find((request) => request.key === 'PUT /api/admin/bank/questions/12/')?.body).toMatchObject({
        tags: ['2081', 'Loksewa'],
        difficulty: 'easy',
        source: 'PSC',
      }),
    )
  })

  it('reads in Nepali with Devanagari digits', async () => {
    renderBank('/admin/bank', 'ne')
    expect(await screen.findByText('२ प्रश्न')).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'प्रश्न बैंक' })).toBeInTheDocument()
    expect(await screen.findByText('१,२००')).toBeInTheDocument()
    expect(screen.getByText('सहजता')).toBeInTheDocument()
  })
})

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>'
const caption = (en = '', ne = '') => ({ en, ne, html: null })

describe('pictures a blind learner cannot hear', () => {
  it("names the question's and each option's picture with no caption in either language, as the server does", () => {
    const draft = newQuestionDraft()
    expect(undescribedPictures(draft)).toEqual([])
    draft.image = { svg: SVG, picture: null, caption: { en: '', ne: '  ' } }
    draft.options[1]!.image = {
      svg: '',
      picture: { url: '/p.webp', width: 1, height: 1, stored: true },
      caption: { en: '', ne: '' },
    }
    draft.options[2]!.image = { svg: SVG, picture: null, caption: { en: '', ne: 'रातो' } }
    expect(undescribedPictures(draft)).toEqual(['question', 1])
    // A caption kept with no image is no picture; a written question's options are not sent.
    draft.image = { svg: ' ', picture: null, caption: { en: '', ne: '' } }
    expect(undescribedPictures(draft)).toEqual([1])
    expect(undescribedPictures({ ...draft, type: 'written' })).toEqual([])
  })
})

describe("the bank's marks for blind learners", () => {
  const question = (extra: object = {}) => ({
    id: 12,
    text: { en: 'Which shape is drawn?', ne: '' },
    hint: null,
    topic: 'Shapes',
    image: { svg: SVG, picture: null, caption: caption() },
    tags: [],
    difficulty: null,
    source: null,
    needs_sight: false,
    no_description: true,
    options: [
      { id: 1, text: { en: 'A circle', ne: '' }, is_correct: true, image: null },
      {
        id: 2,
        text: { en: 'A square', ne: '' },
        is_correct: false,
        image: { svg: SVG, picture: null, caption: caption() },
      },
    ],
    ...extra,
  })

  it('marks a row "Needs sight" and "No description for blind learners", in English and in Nepali', async () => {
    handler = (key, body) =>
      key.startsWith('GET /api/admin/bank/questions/?')
        ? {
            status: 200,
            body: {
              count: 2,
              results: [
                row(12, { needs_sight: true, no_description: true }),
                row(11, { needs_sight: false, no_description: false }),
              ],
            },
          }
        : standard(key, body)
    const { unmount } = renderBank()
    await screen.findByText('2 questions')
    const table = screen.getAllByRole('table').find((t) => t.classList.contains('bank-table'))!
    const rows = within(table).getAllByRole('row')
    expect(within(rows[1]!).getByText('Needs sight')).toBeInTheDocument()
    expect(within(rows[1]!).getByText('No description for blind learners')).toBeInTheDocument()
    expect(within(rows[2]!).queryByText('Needs sight')).toBeNull()
    expect(within(rows[2]!).queryByText('No description for blind learners')).toBeNull()
    unmount()
    renderBank('/admin/bank', 'ne')
    expect(await screen.findByText('हेर्नुपर्ने')).toBeInTheDocument()
    expect(screen.getByText('दृष्टिविहीन विद्यार्थीका लागि विवरण छैन')).toBeInTheDocument()
  })

  it('filters to the questions with a picture and no description (no_description=true), kept in the address', async () => {
    const user = userEvent.setup()
    renderBank()
    await screen.findByText('2 questions')
    await user.click(screen.getByLabelText('Only pictures with no description for blind learners'))
    await waitFor(() =>
      expect(listCalls().at(-1)!.key).toBe('GET /api/admin/bank/questions/?no_description=true&page=1&page_size=50'),
    )
    expect(screen.getByLabelText('Only pictures with no description for blind learners')).toBeChecked()
  })

  it('flags the form\'s pictures without a caption as they are typed, and saves "Needs sight"', async () => {
    const user = userEvent.setup()
    handler = (key, body) => {
      if (key === 'GET /api/admin/bank/questions/12/') return { status: 200, body: question() }
      if (key === 'PUT /api/admin/bank/questions/12/') return { status: 200, body: { id: 12 } }
      return standard(key, body)
    }
    renderBank()
    await screen.findByText('2 questions')
    await user.click(screen.getByRole('button', { name: 'Edit question 12' }))
    const form = await screen.findByRole('region', { name: 'Edit Question' })
    expect(within(form).getByText('No description for blind learners')).toBeInTheDocument()
    expect(form).toHaveTextContent("No caption on the question's picture, option 2's picture")
    await user.type(within(form).getAllByLabelText('Image caption (Nepali)')[0]!, 'एउटा गोलो')
    expect(form).toHaveTextContent("No caption on option 2's picture:")
    const needsSight = within(form).getByRole('checkbox', { name: 'Needs sight' })
    expect(needsSight).not.toBeChecked()
    expect(needsSight).toHaveAccessibleDescription(/cannot be answered without seeing its picture/)
    await user.click(needsSight)
    await user.click(within(form).getByRole('button', { name: 'Save Question' }))
    await waitFor(() =>
      expect(sent.find((request) => request.key === 'PUT /api/admin/bank/questions/12/')?.body).toMatchObject({
        needs_sight: true,
        image: { caption: { ne: 'एउटा गोलो' } },
      }),
    )
  })

  it('opens a question marked "Needs sight" checked, and says nothing of pictures that have captions', async () => {
    const user = userEvent.setup()
    handler = (key, body) =>
      key === 'GET /api/admin/bank/questions/12/'
        ? {
            status: 200,
            body: question({
              needs_sight: true,
              no_description: false,
              image: { svg: SVG, picture: null, caption: caption('A circle in a box') },
              options: [
                { id: 1, text: { en: 'A circle', ne: '' }, is_correct: true, image: null },
                { id: 2, text: { en: 'A square', ne: '' }, is_correct: false, image: null },
              ],
            }),
          }
        : standard(key, body)
    renderBank('/admin/bank', 'ne')
    await screen.findByText('२ प्रश्न')
    await user.click(screen.getByRole('button', { name: 'प्रश्न १२ सम्पादन गर्नुहोस्' }))
    expect(await screen.findByRole('checkbox', { name: 'हेर्नुपर्ने' })).toBeChecked()
    expect(screen.queryByText('दृष्टिविहीन विद्यार्थीका लागि विवरण छैन')).toBeNull()
  })
})

describe('deleting a bank question', () => {
  it('deletes after confirmation, and names the papers that still use it on 409', async () => {
    const user = userEvent.setup()
    handler = (key, body) => {
      if (key === 'DELETE /api/admin/bank/questions/11/') return { status: 204, body: undefined }
      if (key === 'DELETE /api/admin/bank/questions/12/')
        return {
          status: 409,
          body: { detail: 'In use.', code: 'question_in_use', quizzes: [{ id: 3, title: { en: 'Mock 1', ne: '' } }] },
        }
      return standard(key, body)
    }
    HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
      this.setAttribute('open', '')
    }
    renderBank()
    await screen.findByText('2 questions')
    await user.click(screen.getByRole('button', { name: 'Delete question 12' }))
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }))
    expect(
      await screen.findByText('This question is in the paper of Mock 1: remove it from those papers first.'),
    ).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Delete question 11' }))
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('The question was deleted from the bank.')).toBeInTheDocument()
  })
})
