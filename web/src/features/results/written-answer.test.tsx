import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../../test/axe'
import { fakeNetwork, page, polyfillDialog, renderRoutes } from '../../test/page-test-utils'
import { Component as ReportPage } from './report-page'
import type { ReportCard } from './results.api'
import type { RegradeRequest, WrittenResult } from './written.api'

const card: ReportCard = {
  id: 40,
  attempt_number: 1,
  quiz: { id: 3, title: { en: 'Section Officer mock', ne: 'शाखा अधिकृत नमुना' }, live: false },
  ranked: true,
  mode: 'online',
  score: 8,
  marking: 'released',
  written: { marks: 7, max_marks: 10, released: 1, total: 1 },
  correct: 1,
  incorrect: 0,
  unanswered: 0,
  completed_timestamp: '2026-11-20T08:00:00.000Z',
  challenge_closes_at: '2026-11-27T08:00:00.000Z',
  key_withheld: null,
  key_withheld_until: null,
  questions: [
    {
      id: 1,
      text: { en: 'Capital?', ne: 'राजधानी?', html: null },
      hint: null,
      topic: '',
      image: null,
      options: [
        { id: 11, text: { en: 'Kathmandu', ne: 'काठमाडौं', html: null }, is_correct: true, image: null },
        { id: 12, text: { en: 'Pokhara', ne: 'पोखरा', html: null }, is_correct: false, image: null },
      ],
    },
    {
      id: 2,
      text: { en: 'Explain federalism in Nepal.', ne: 'नेपालमा सङ्घीयता व्याख्या गर्नुहोस्।', html: null },
      hint: null,
      topic: 'constitution',
      image: null,
      options: [],
    },
  ],
  answers: [
    { question: 1, selected_option: 11, marked: false, time_spent_seconds: 20, flag: null, regrade: null },
    { question: 2, selected_option: null, marked: false, time_spent_seconds: 600, flag: null, regrade: null },
  ],
  analysis: {
    topics: [],
    negative_marks: 0,
    participants: 3,
    rank: 1,
    percentile: 100,
    average_score: 5,
    highest_score: 8,
  },
  // The choice part's most: the written part's marks are `written.max_marks` (API.md).
  max_score: 1,
  time_vs_top: [],
  sections: [],
}

const openUntil = new Date(Date.now() + 5 * 86_400_000).toISOString()
const released: WrittenResult = {
  status: 'released',
  marks: 7,
  max_marks: 10,
  items: [
    { id: 71, title: { en: 'Defines federalism', ne: 'सङ्घीयताको परिभाषा' }, points: 3, explanation: null },
    { id: 72, title: { en: 'Names the three tiers', ne: 'तीन तह उल्लेख' }, points: 5, explanation: null },
    {
      id: 73,
      title: { en: 'No example', ne: 'उदाहरण छैन' },
      points: -1,
      explanation: { en: 'Give one', ne: 'एउटा दिनुहोस्' },
    },
  ],
  adjustment: 0,
  comment: { en: 'Good structure.', ne: 'Good structure.' },
  pages: [
    {
      id: 301,
      url: '/api/written-pages/301/?signature=s',
      phone_url: '/api/written-pages/301/?signature=s&size=phone',
      width: 1600,
      height: 2200,
      annotations: {
        v: 1,
        marks: [
          { k: 'stamp', code: 'tick', x: 8000, y: 1000 },
          { k: 'stamp', code: 'good', x: 5000, y: 4000 },
          {
            k: 'ink',
            points: [
              [1000, 2000],
              [6000, 2100],
            ],
            width: 25,
            color: '#d00000',
          },
          { k: 'note', x: 1000, y: 7000, text: 'Which article?' },
          { k: 'item', item_id: 71, x: 9000, y: 2000 },
          { k: 'item', item_id: 73, x: 9000, y: 8000 },
        ],
      },
    },
  ],
  text: '',
  word_count: 0,
  model_answer: {
    en: 'Nepal has federal, provincial and local governments.',
    ne: 'नेपालमा सङ्घ, प्रदेश र स्थानीय तह छन्।',
    html: null,
  },
  regrade: { open_until: openUntil, request: null },
}

const openRequest: RegradeRequest = {
  id: 9,
  status: 'open',
  message: 'Page 1 names all three tiers.',
  item_id: null,
  response: null,
  created_at: '2026-11-21T08:00:00.000Z',
  decided_at: null,
  settled_at: null,
  old_marks: null,
  new_marks: null,
}

function renderReport(result: WrittenResult, language: 'en' | 'ne' = 'en', extra = {}) {
  const network = fakeNetwork({
    'GET /api/results/40/': () => ({ body: card }),
    'GET /api/results/40/written/2/': () => ({ body: result }),
    ...extra,
  })
  const view = renderRoutes([page(ReportPage, '/results/:attemptId')], { path: '/results/40', language })
  return { ...view, network }
}

beforeAll(polyfillDialog)
afterEach(() => vi.unstubAllGlobals())

describe('the report card’s written answers', () => {
  it('shows the marks, items gained and lost, the comment, the marked page and the model answer', async () => {
    const { container } = renderReport(released)
    const article = await screen.findByRole('article', { name: /Written question 2/ })
    expect(await within(article).findByText('7 of 10')).toBeInTheDocument()
    // In the question list, the written question is neither right, wrong nor unanswered: its marks are below.
    expect(screen.getByRole('button', { name: /Explain federalism/ })).toHaveTextContent('Written answer: marks below')
    const gained = within(article).getByRole('region', { name: 'Marks gained' })
    expect(
      within(gained)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['+3 Defines federalism', '+5 Names the three tiers'])
    const lost = within(article).getByRole('region', { name: 'Marks lost' })
    expect(lost).toHaveTextContent('−1 No example — Give one')
    expect(within(article).getByText('Good structure.')).toBeInTheDocument()
    expect(within(article).getByText(/federal, provincial and local/)).toBeInTheDocument()
    const image = within(article).getByRole('img', { name: 'Page 1 of your answer to question 2' })
    expect(image).toHaveAttribute('src', '/api/written-pages/301/?signature=s')
    // On a phone the browser takes the 720 px rendition; the full page on a wide screen or zoomed in.
    expect(image).toHaveAttribute(
      'srcset',
      '/api/written-pages/301/?signature=s&size=phone 720w, /api/written-pages/301/?signature=s 1600w',
    )
    expect(image).toHaveAttribute('sizes', '(min-width: 960px) 892px, calc(100vw - 4.25rem)')
    expect(image).toHaveAttribute('fetchpriority', 'high')
    await userEvent.setup().click(within(article).getByRole('button', { name: 'Enlarge page 1' }))
    expect(image).toHaveAttribute('sizes', '(min-width: 960px) 1784px, calc(200vw - 8.5rem)')
    // Zoomed, the page scrolls in its frame, which keyboard users can reach to scroll it.
    const frame = within(article).getByRole('group', { name: 'Page 1 of your answer to question 2' })
    expect(frame).toHaveAttribute('tabindex', '0')
    // The marks are drawn over the page: two stamps, a stroke and the note.
    const svg = article.querySelector('.annotated-page svg')!
    expect(svg.querySelectorAll('path').length).toBe(2)
    expect(svg).toHaveTextContent('Good')
    expect(svg).toHaveTextContent('Which article?')
    // An item placed on the page shows its points, read from the item's id.
    expect(svg).toHaveTextContent('+3')
    expect(svg).toHaveTextContent('−1')
    expect(await axeViolations(container)).toEqual([])
  })

  it('reads in Nepali: stamps, items and model answer in the learner’s language', async () => {
    const { container } = renderReport(released, 'ne')
    const article = await screen.findByRole('article', { name: /लिखित प्रश्न २/ })
    expect(await within(article).findByText('१० मध्ये ७')).toBeInTheDocument()
    expect(within(article).getByText('सङ्घीयताको परिभाषा')).toBeInTheDocument()
    expect(article.querySelector('.annotated-page svg')).toHaveTextContent('राम्रो')
    expect(within(article).getByText(/सङ्घ, प्रदेश र स्थानीय/)).toBeInTheDocument()
    expect(await axeViolations(container)).toEqual([])
  })

  it.each([
    ['en', 'Tier', 'x²'],
    ['ne', 'तह', 'y²'],
  ] as const)(
    'draws a model answer’s table and maths as the server rendered them, in %s',
    async (language, th, math) => {
      // The server's render (server/src/maths/render-maths.ts): table markup and MathML in each language (issue 73).
      const drawn = (header: string, formula: string) =>
        `<div class="q-table" tabindex="0" role="group"><table><thead><tr><th scope="col">${header}</th></tr></thead>` +
        `<tbody><tr><td><math><semantics><mrow><msup><mi>${formula[0]}</mi><mn>2</mn></msup></mrow></semantics></math>` +
        '</td></tr></tbody></table></div>'
      const model_answer = {
        en: '| Tier |\n|---|\n| x² |',
        ne: '| तह |\n|---|\n| y² |',
        html: { en: drawn('Tier', 'x'), ne: drawn('तह', 'y') },
      }
      const { container } = renderReport({ ...released, model_answer }, language)
      const region = await screen.findByRole('region', { name: language === 'en' ? 'Model answer' : /नमुना/ })
      const table = within(region).getByRole('table')
      expect(within(table).getByRole('columnheader')).toHaveTextContent(th)
      expect(table.querySelector('math msup')).toHaveTextContent(math.replace('²', '2'))
      expect(region).not.toHaveTextContent('|---|')
      expect(await axeViolations(container)).toEqual([])
    },
  )

  it('says an answer awaits marking and shows neither marks nor model answer', async () => {
    renderReport({
      ...released,
      status: 'submitted',
      marks: null,
      items: [],
      comment: null,
      model_answer: null,
      adjustment: null,
      pages: released.pages.map((entry) => ({ ...entry, annotations: null })),
      regrade: { open_until: null, request: null },
    })
    const article = await screen.findByRole('article', { name: /Written question 2/ })
    expect(await within(article).findByText('Awaiting marking')).toBeInTheDocument()
    expect(within(article).queryByRole('region', { name: 'Model answer' })).toBeNull()
    expect(within(article).queryByRole('button', { name: 'Ask for a re-mark' })).toBeNull()
  })

  it('asks for a re-mark with a message, then shows it asked for', async () => {
    let request: unknown = null
    const user = userEvent.setup()
    const { network } = renderReport(released, 'en', {
      'GET /api/results/40/written/2/': () => ({ body: { ...released, regrade: { open_until: openUntil, request } } }),
      'POST /api/results/40/written/2/regrade/': ({ body }: { body: unknown }) => {
        request = { ...openRequest, message: (body as { message: string }).message }
        return { status: 201, body: request }
      },
    })
    await user.click(await screen.findByRole('button', { name: 'Ask for a re-mark' }))
    await user.click(screen.getByRole('button', { name: 'Send' }))
    expect(screen.getByText('Write what the marker should look at again.')).toBeInTheDocument()
    expect(network.callsTo('POST', '/api/results/40/written/2/regrade/')).toHaveLength(0)
    await user.type(screen.getByLabelText('What should the marker look at again?'), 'Page 1 names all three tiers.')
    await user.click(screen.getByRole('button', { name: 'Send' }))
    expect(await screen.findByText('Re-mark asked for.')).toBeInTheDocument()
    expect(screen.getByText('Waiting')).toBeInTheDocument()
    expect(network.callsTo('POST', '/api/results/40/written/2/regrade/')[0]!.body).toEqual({
      message: 'Page 1 names all three tiers.',
    })
  })

  it('asks about one rubric item, sending its id, and shows the request as the server returns it', async () => {
    let request: RegradeRequest | null = null
    const user = userEvent.setup()
    const { network, container } = renderReport(released, 'en', {
      'GET /api/results/40/written/2/': () => ({ body: { ...released, regrade: { open_until: openUntil, request } } }),
      'POST /api/results/40/written/2/regrade/': ({ body }: { body: unknown }) => {
        const sent = body as { message: string; item_id?: number }
        request = { ...openRequest, message: sent.message, item_id: sent.item_id ?? null }
        return { status: 201, body: request }
      },
    })
    await user.click(await screen.findByRole('button', { name: 'Ask for a re-mark' }))
    const about = screen.getByLabelText('About')
    expect(
      within(about)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['The whole answer', 'Defines federalism', 'Names the three tiers', 'No example'])
    await user.selectOptions(about, 'No example')
    await user.type(screen.getByLabelText('What should the marker look at again?'), 'Page 2 has an example.')
    expect(await axeViolations(container)).toEqual([])
    await user.click(screen.getByRole('button', { name: 'Send' }))
    const status = (await screen.findByText('Re-mark asked for.')).closest('[role="status"]')!
    expect(status).toHaveTextContent('About: No example')
    expect(status).toHaveTextContent('Page 2 has an example.')
    expect(network.callsTo('POST', '/api/results/40/written/2/regrade/')[0]!.body).toEqual({
      message: 'Page 2 has an example.',
      item_id: 73,
    })
    expect(screen.queryByRole('button', { name: /Ask for/ })).toBeNull()
  })

  it('shows an accepted request awaiting the second marking, and offers no other', async () => {
    renderReport({
      ...released,
      regrade: {
        open_until: openUntil,
        request: {
          ...openRequest,
          status: 'accepted',
          response: 'Looking again at page 2.',
          decided_at: openRequest.created_at,
        },
      },
    })
    const status = (await screen.findByText('Re-mark asked for.')).closest('[role="status"]')!
    expect(status).toHaveTextContent('Accepted')
    expect(status).toHaveTextContent('Reply: Looking again at page 2.')
    expect(status).toHaveTextContent('Your answer will be marked again')
    expect(screen.queryByRole('button', { name: /Ask for/ })).toBeNull()
  })

  it('shows a settled request with the marks before and after, and lets the learner ask again', async () => {
    renderReport(
      {
        ...released,
        marks: 8,
        regrade: {
          open_until: openUntil,
          request: {
            ...openRequest,
            status: 'accepted',
            response: 'Page 2 has it.',
            decided_at: openRequest.created_at,
            settled_at: openRequest.created_at,
            old_marks: 7,
            new_marks: 8,
          },
        },
      },
      'ne',
    )
    const status = (await screen.findByText('फेरि जाँच्न अनुरोध गरियो।')).closest('[role="status"]')!
    expect(status).toHaveTextContent('फेरि जाँचियो: ७ → ८।')
    // The marker's words keep their digits.
    expect(status).toHaveTextContent('जवाफ: Page 2 has it.')
    expect(await screen.findByRole('button', { name: 'फेरि अर्को पटक जाँच्न अनुरोध गर्नुहोस्' })).toBeInTheDocument()
  })

  it('says a second request is refused, and that the window has closed once it has', async () => {
    const user = userEvent.setup()
    renderReport(released, 'en', {
      'POST /api/results/40/written/2/regrade/': () => ({ status: 409, body: { code: 'conflict', detail: 'open' } }),
    })
    await user.click(await screen.findByRole('button', { name: 'Ask for a re-mark' }))
    await user.type(screen.getByLabelText('What should the marker look at again?'), 'Again')
    await user.click(screen.getByRole('button', { name: 'Send' }))
    expect(await screen.findByText('You have already asked for a re-mark of this answer.')).toBeInTheDocument()
  })

  it('offers no re-mark after seven days', async () => {
    renderReport({ ...released, regrade: { open_until: '2026-01-01T00:00:00.000Z', request: null } })
    expect(await screen.findByText(/until 7 days after release/)).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Ask for a re-mark' })).toBeNull())
  })
})

describe('the report card’s headline with a written part', () => {
  const headline = () => screen.findByText((_, element) => element?.className === 'report-summary__value')

  it('gives the score out of the choice part and the written part together', async () => {
    renderReport(released)
    expect(await headline()).toHaveTextContent('8.00 of 11')
  })

  it('gives a paper of written questions alone its written marks, not "of 0"', async () => {
    const writtenOnly: ReportCard = {
      ...card,
      score: 7,
      correct: 0,
      questions: card.questions.slice(1),
      answers: card.answers.slice(1),
      max_score: 0,
    }
    renderReport(released, 'ne', { 'GET /api/results/40/': () => ({ body: writtenOnly }) })
    expect(await headline()).toHaveTextContent('१० मध्ये ७.००')
  })

  it('says the written part awaits marking while it is not released', async () => {
    const pending: ReportCard = {
      ...card,
      score: 1,
      marking: 'pending',
      written: { ...card.written!, marks: 0, released: 0 },
    }
    renderReport({ ...released, status: 'submitted' }, 'en', { 'GET /api/results/40/': () => ({ body: pending }) })
    expect(await headline()).toHaveTextContent('1.00 of 11')
    expect(screen.getByText('Written part: awaiting marking')).toBeInTheDocument()
  })
})

describe('a notification’s link to one written answer', () => {
  const twoWritten: ReportCard = {
    ...card,
    written: { marks: 14, max_marks: 20, released: 2, total: 2 },
    questions: [
      ...card.questions,
      { ...card.questions[1]!, id: 3, text: { en: 'Explain the Public Service Commission.', ne: '', html: null } },
    ],
    answers: [...card.answers, { ...card.answers[1]!, question: 3 }],
  }

  it('scrolls the report to the answer it names once that answer and those above it are drawn', async () => {
    const scrolled: { id: string; drawn: boolean }[] = []
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push({ id: this.id, drawn: this.textContent?.includes('of 10') ?? false })
    }
    try {
      let answerAbove!: () => void
      const above = new Promise<void>((resolve) => (answerAbove = resolve))
      fakeNetwork({
        'GET /api/results/40/': () => ({ body: twoWritten }),
        'GET /api/results/40/written/2/': async () => {
          await above
          return { body: released }
        },
        'GET /api/results/40/written/3/': () => ({ body: { ...released, marks: 7 } }),
      })
      renderRoutes([page(ReportPage, '/results/:attemptId')], { path: '/results/40#written-3' })
      const named = await screen.findByRole('article', { name: /Written question 3/ })
      expect(named).toHaveAttribute('id', 'written-3')
      await within(named).findByText('7 of 10')
      // The answer above is still coming: scrolling now would land wherever it pushes the named one.
      expect(scrolled).toEqual([])
      answerAbove()
      await within(screen.getByRole('article', { name: /Written question 2/ })).findByText('7 of 10')
      await waitFor(() => expect(scrolled).toEqual([{ id: 'written-3', drawn: true }]))
    } finally {
      delete (Element.prototype as Partial<Element>).scrollIntoView
    }
  })
})
