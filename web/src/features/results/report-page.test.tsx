import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, polyfillDialog, renderRoutes, stackedLabels } from '../../test/page-test-utils'
import { givenAnswer, questionStatus } from './question-status'
import type { ReportCard } from './results.api'
import { Component as ReportPage } from './report-page'

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><circle cx="2" cy="2" r="2"/></svg>'
const longEn =
  'Which of the following rivers flows through the Kathmandu Valley and joins the Ganges in India eventually?'
const longNe = 'तलका मध्ये कुन नदी काठमाडौं उपत्यका हुँदै बग्छ र अन्ततः भारतमा गङ्गा नदीमा मिसिन्छ? क्षत्रिय स्ते क्षत्रिय अझै'

const report: ReportCard = {
  id: 30,
  attempt_number: 1,
  quiz: { id: 3, title: { en: 'Science Basics', ne: 'विज्ञानका आधारहरू' }, live: false },
  ranked: true,
  mode: 'online',
  score: 0.8,
  marking: 'none',
  written: null,
  correct: 1,
  incorrect: 1,
  unanswered: 1,
  completed_timestamp: '2026-11-20T08:00:00.000Z',
  challenge_closes_at: '2026-11-27T08:00:00.000Z',
  key_withheld: null,
  key_withheld_until: null,
  questions: [
    {
      id: 1,
      text: { en: longEn, ne: longNe, html: null },
      hint: { en: 'Think of Pashupatinath.', ne: 'पशुपतिनाथ सम्झनुहोस्।', html: null },
      topic: 'geography',
      image: { svg_content: SVG, picture: null, caption: { en: 'A map', ne: 'नक्सा', html: null } },
      options: [
        {
          id: 11,
          text: { en: 'Bagmati', ne: 'बागमती', html: null },
          is_correct: true,
          image: {
            svg_content: null,
            picture: { url: `/api/pictures/${'d'.repeat(64)}.webp`, width: 320, height: 200 },
            caption: { en: 'River', ne: 'नदी', html: null },
          },
        },
        { id: 12, text: { en: 'Koshi', ne: 'कोशी', html: null }, is_correct: false, image: null },
      ],
    },
    {
      id: 2,
      text: { en: 'Short question?', ne: '', html: null },
      hint: null,
      topic: '',
      image: null,
      options: [
        { id: 21, text: { en: 'Yes', ne: 'हो', html: null }, is_correct: true, image: null },
        { id: 22, text: { en: 'No', ne: 'होइन', html: null }, is_correct: false, image: null },
      ],
    },
    {
      id: 3,
      text: { en: 'Unanswered one?', ne: '', html: null },
      hint: { en: '', ne: '', html: null },
      topic: '',
      image: null,
      options: [
        { id: 31, text: { en: 'A', ne: '', html: null }, is_correct: true, image: null },
        { id: 32, text: { en: 'B', ne: '', html: null }, is_correct: false, image: null },
      ],
    },
  ],
  answers: [
    { question: 1, selected_option: 11, marked: false, time_spent_seconds: 95, flag: null, regrade: null },
    { question: 2, selected_option: 22, marked: true, time_spent_seconds: 42, flag: null, regrade: null },
    { question: 3, selected_option: null, marked: false, time_spent_seconds: 0, flag: null, regrade: null },
  ],
  analysis: {
    topics: [
      { topic: 'geography', correct: 1, incorrect: 0, unanswered: 0, score: 1 },
      { topic: null, correct: 0, incorrect: 1, unanswered: 1, score: -0.2 },
    ],
    negative_marks: 0.2,
    participants: 12,
    rank: 2,
    percentile: 81.82,
    average_score: 1.45,
    highest_score: 3,
  },
  max_score: 3,
  time_vs_top: [],
  sections: [{ title: { en: '', ne: '' }, score: 0.8, max_score: 3, correct: 1, incorrect: 1, unanswered: 1 }],
}

function renderReport(response: { status?: number; body?: unknown }, language: 'en' | 'ne' = 'en') {
  fakeNetwork({ 'GET /api/results/30/': () => response })
  return renderRoutes([page(ReportPage, '/results/:attemptId')], { path: '/results/30', language })
}

beforeAll(polyfillDialog)
afterEach(() => vi.unstubAllGlobals())

describe('questionStatus', () => {
  const question = report.questions[0]!
  it('is correct, incorrect or unanswered', () => {
    const chose = (selected: number | null) => givenAnswer({ ...report.answers[0]!, selected_option: selected })
    expect(questionStatus(question, chose(11))).toBe('correct')
    expect(questionStatus(question, chose(12))).toBe('incorrect')
    expect(questionStatus(question, chose(null))).toBe('unanswered')
    expect(questionStatus(question, givenAnswer(undefined))).toBe('unanswered')
  })
})

describe('report page', () => {
  it('links a live mock to its leaderboard and marks a practice attempt unranked', async () => {
    renderReport({ body: { ...report, quiz: { ...report.quiz, live: true }, ranked: false } })
    expect(await screen.findByRole('link', { name: 'Leaderboard' })).toHaveAttribute('href', '/quiz/3/leaderboard')
    expect(screen.getByText('Practice (unranked)')).toBeInTheDocument()
  })

  it('says until when a live mock withholds its key, and marks answers neither right nor wrong meanwhile', async () => {
    const user = userEvent.setup()
    const withheld: ReportCard = {
      ...report,
      quiz: { ...report.quiz, live: true },
      key_withheld: 'live',
      key_withheld_until: '2026-11-20T09:00:00.000Z',
      questions: report.questions.map((question) => ({
        ...question,
        hint: null,
        options: question.options.map((option) => ({ ...option, is_correct: false })),
      })),
    }
    renderReport({ body: withheld })
    expect(await screen.findByText(/Right answers and hints are shown from/)).toBeInTheDocument()
    const rows = within(screen.getByRole('list')).getAllByRole('button')
    expect(rows.map((row) => row.querySelector('.badge:last-child')?.textContent)).toEqual([
      'Answered',
      'Answered',
      'Unanswered',
    ])
    await user.click(await screen.findByRole('button', { name: /Short question/ }))
    const options = within(screen.getByRole('dialog', { name: 'Question 2' })).getAllByRole('listitem')
    expect(options[1]).toHaveTextContent('Your answer')
    expect(options[1]).not.toHaveClass('report-option--incorrect')
    // A key not shown cannot be challenged yet (the server answers 409 challenge_not_open).
    expect(
      within(screen.getByRole('dialog', { name: 'Question 2' })).queryByRole('button', { name: 'Challenge the key' }),
    ).not.toBeInTheDocument()
  })

  it('says a screen reader’s paper was adapted, and nothing when it was not', async () => {
    renderReport({ body: { ...report, adapted: { left_out: 2 } } })
    expect(
      await screen.findByText(
        "Adapted for a screen reader: 2 questions that need sight were left out, and each section's marks were shared among the questions left.",
      ),
    ).toBeInTheDocument()
  })

  it('says a paper sitting of a quiz not yet published shows its key once the quiz is published', async () => {
    const withheld: ReportCard = { ...report, mode: 'paper', key_withheld: 'unpublished', key_withheld_until: null }
    renderReport({ body: withheld })
    expect(
      await screen.findByText('Right answers and hints are shown once this quiz is published.'),
    ).toBeInTheDocument()
    expect(within(screen.getByRole('list')).getAllByRole('button')[1]).toHaveTextContent('Answered')
  })

  it('says a written attempt shows its key when the time to send photos of its written answers ends', async () => {
    const withheld: ReportCard = {
      ...report,
      key_withheld: 'written_uploads',
      key_withheld_until: '2026-11-20T08:15:00.000Z',
    }
    renderReport({ body: withheld })
    expect(await screen.findByText(/when the time to send photos of your written answers ends/)).toBeInTheDocument()
    expect(screen.queryByText(/once everyone sitting this mock has finished/)).not.toBeInTheDocument()
  })

  it('marks a paper attempt "On paper" with its sitting date, no times, and shows the photo of the sheet', async () => {
    const user = userEvent.setup()
    URL.createObjectURL = vi.fn(() => 'blob:sheet-30')
    URL.revokeObjectURL = vi.fn()
    const network = fakeNetwork({
      'GET /api/results/30/': () => ({ body: { ...report, mode: 'paper' } }),
      'GET /api/results/30/sheet': () => ({ body: 'photo' }),
    })
    renderRoutes([page(ReportPage, '/results/:attemptId')], { path: '/results/30' })
    expect(await screen.findByText('On paper')).toBeInTheDocument()
    expect(screen.getByText('20 Nov 2026')).toBeInTheDocument()
    expect(screen.queryByText(/1 min 35 s|95 s/)).not.toBeInTheDocument()
    expect(network.callsTo('GET', '/api/results/30/sheet')).toHaveLength(0)

    await user.click(screen.getByRole('button', { name: 'My answer sheet' }))
    const dialog = screen.getByRole('dialog', { name: 'My answer sheet' })
    expect(await within(dialog).findByRole('img', { name: /Photo of your answer sheet/ })).toHaveAttribute(
      'src',
      'blob:sheet-30',
    )
    expect(network.callsTo('GET', '/api/results/30/sheet')).toHaveLength(1)
  })

  it("zooms the sheet's photo in, to a block that scrolls by keyboard too, and fits it back", async () => {
    const user = userEvent.setup()
    URL.createObjectURL = vi.fn(() => 'blob:sheet-30')
    URL.revokeObjectURL = vi.fn()
    fakeNetwork({
      'GET /api/results/30/': () => ({ body: { ...report, mode: 'paper' } }),
      'GET /api/results/30/sheet': () => ({ body: 'photo' }),
    })
    renderRoutes([page(ReportPage, '/results/:attemptId')], { path: '/results/30' })
    await user.click(await screen.findByRole('button', { name: 'My answer sheet' }))
    const dialog = screen.getByRole('dialog', { name: 'My answer sheet' })
    await within(dialog).findByRole('img', { name: /Photo of your answer sheet/ })
    expect(within(dialog).queryByRole('group')).not.toBeInTheDocument()

    await user.click(within(dialog).getByRole('button', { name: 'Zoom in' }))
    const zoomed = within(dialog).getByRole('group', { name: /zoomed in/ })
    expect(zoomed).toHaveAttribute('tabindex', '0')
    expect(within(zoomed).getByRole('img', { name: /Photo of your answer sheet/ })).toHaveAttribute(
      'src',
      'blob:sheet-30',
    )

    await user.click(within(dialog).getByRole('button', { name: 'Fit to screen' }))
    expect(within(dialog).queryByRole('group')).not.toBeInTheDocument()
    expect(within(dialog).getByRole('img', { name: /Photo of your answer sheet/ })).toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'Zoom in' })).toBeInTheDocument()
  })

  it('says "On paper" and the Bikram Sambat date in Nepali', async () => {
    renderReport({ body: { ...report, mode: 'paper' } }, 'ne')
    expect(await screen.findByText('कागजमा')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'मेरो उत्तरपुस्तिका' })).toBeInTheDocument()
    expect(screen.getByText('२०८३ मंसिर ४')).toBeInTheDocument()
  })

  it('shows neither for an ordinary quiz', async () => {
    renderReport({ body: report })
    await screen.findByRole('heading', { level: 1, name: 'Science Basics' })
    expect(screen.queryByRole('link', { name: 'Leaderboard' })).not.toBeInTheDocument()
    expect(screen.queryByText('Practice (unranked)')).not.toBeInTheDocument()
    expect(screen.queryByText('On paper')).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'My answer sheet' })).not.toBeInTheDocument()
  })

  it('shows the title, final score, counts and a row per question with a 60-character preview and a badge', async () => {
    renderReport({ body: report })
    expect(await screen.findByRole('heading', { level: 1, name: 'Science Basics' })).toBeInTheDocument()
    expect(screen.getByText('0.80 of 3')).toBeInTheDocument()
    const rows = within(screen.getByRole('list')).getAllByRole('button')
    expect(rows).toHaveLength(3)
    expect(rows[0]).toHaveTextContent(`${longEn.slice(0, 60).trimEnd()}...`)
    expect(rows[0]).toHaveTextContent('Correct')
    expect(rows[1]).toHaveTextContent('Short question?')
    expect(rows[1]).not.toHaveTextContent('...')
    expect(rows[1]).toHaveTextContent('Incorrect')
    expect(rows[2]).toHaveTextContent('Unanswered')
  })

  it('opens a detail modal with the answers marked, the image, option images and the hint', async () => {
    const user = userEvent.setup()
    renderReport({ body: report })
    await user.click((await screen.findAllByRole('button', { name: /Which of the following/ }))[0]!)
    const dialog = screen.getByRole('dialog', { name: 'Question 1' })
    expect(within(dialog).getByText(longEn)).toBeInTheDocument()
    expect(within(dialog).getByRole('img', { name: 'A map' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/svg\+xml/),
    )
    expect(within(dialog).getByText('River')).toBeInTheDocument()
    const picture = within(dialog).getByRole('img', { name: 'Image for option A' })
    expect(picture).toHaveAttribute('src', expect.stringMatching(/^\/api\/pictures\/d+\.webp$/))
    expect(picture).toHaveAttribute('height', '200')
    expect(picture).toHaveAttribute('loading', 'lazy')
    expect(dialog.querySelectorAll('img')).toHaveLength(2)
    const options = within(dialog).getAllByRole('listitem')
    expect(options[0]).toHaveTextContent('Your answer')
    expect(options[0]).toHaveTextContent('Correct answer')
    expect(options[1]).not.toHaveTextContent('answer')
    expect(within(dialog).getByText('Think of Pashupatinath.')).toBeInTheDocument()
  })

  it('marks a wrong answer apart from the correct one, and leaves out an empty hint', async () => {
    const user = userEvent.setup()
    renderReport({ body: report })
    await user.click(await screen.findByRole('button', { name: /Short question/ }))
    let options = within(screen.getByRole('dialog', { name: 'Question 2' })).getAllByRole('listitem')
    expect(options[0]).toHaveTextContent('Correct answer')
    expect(options[0]).not.toHaveTextContent('Your answer')
    expect(options[1]).toHaveTextContent('Your answer')
    expect(options[1]).toHaveClass('report-option--incorrect')
    await user.click(screen.getByRole('button', { name: 'Close' }))

    await user.click(screen.getByRole('button', { name: /Unanswered one/ }))
    const dialog = screen.getByRole('dialog', { name: 'Question 3' })
    options = within(dialog).getAllByRole('listitem')
    expect(dialog).toHaveTextContent('You did not answer this question.')
    expect(dialog).not.toHaveTextContent('Your answer')
    expect(dialog).not.toHaveTextContent('Hint')
  })

  it('previews in the current language without splitting Devanagari', async () => {
    renderReport({ body: report }, 'ne')
    expect(await screen.findByRole('heading', { level: 1, name: 'विज्ञानका आधारहरू' })).toBeInTheDocument()
    const first = within(screen.getByRole('list')).getAllByRole('button')[0]!
    const text = first.querySelector('.analysis__text')?.textContent ?? ''
    expect(text.endsWith('...')).toBe(true)
    expect(text).not.toMatch(/[\u094D]\.\.\.$/)
    expect(longNe.startsWith(text.slice(0, -3))).toBe(true)
    // The 60th character is the conjunct "त्रि" (four code points): kept whole, not cut after "त्".
    expect(text.slice(0, -3).endsWith('क्षत्रि')).toBe(true)
    expect(first).toHaveTextContent('सही')
  })

  it('shows the analysis: rank of participants, percentile, average, highest, marks lost, topics and advice', async () => {
    renderReport({ body: report })
    const panel = await screen.findByRole('region', { name: 'How you did' })
    expect(within(panel).getByText('Rank').nextElementSibling).toHaveTextContent('2 of 12')
    expect(within(panel).getByText('Percentile').nextElementSibling).toHaveTextContent('81.82')
    expect(within(panel).getByText('Average score').nextElementSibling).toHaveTextContent('1.45')
    expect(within(panel).getByText('Highest score').nextElementSibling).toHaveTextContent('3.00')
    expect(within(panel).getByText('Marks lost to wrong answers').nextElementSibling).toHaveTextContent('0.20')
    const rows = within(within(panel).getByRole('table')).getAllByRole('row')
    expect(rows[1]).toHaveTextContent('geography1001.00')
    expect(rows[2]).toHaveTextContent('No topic011-0.20')
    expect(stackedLabels(within(panel).getByRole('table'))[0]).toEqual(['Right', 'Wrong', 'Skipped', 'Score'])
    expect(within(panel).getByRole('note')).toHaveTextContent(
      'In No topic, wrong answers cost you more marks than right answers earned: leave questions you are unsure of unanswered there.',
    )
  })

  it('gives no advice when no topic lost more than it earned', async () => {
    const analysis = { ...report.analysis, topics: [report.analysis.topics[0]!] }
    renderReport({ body: { ...report, analysis } })
    await screen.findByRole('region', { name: 'How you did' })
    expect(screen.queryByRole('note')).not.toBeInTheDocument()
  })

  it('shows the time spent on each question and which were marked', async () => {
    renderReport({ body: report })
    const rows = within(await screen.findByRole('list')).getAllByRole('button')
    expect(rows[0]).toHaveTextContent('Time spent: 1 min 35 s')
    expect(rows[0]).not.toHaveTextContent('Marked for review')
    expect(rows[1]).toHaveTextContent('Time spent: 42 s')
    expect(rows[1]).toHaveTextContent('Marked for review')
    expect(rows[2]).toHaveTextContent('0 s')
  })

  it('writes every figure in Devanagari digits and the date in Bikram Sambat in Nepali', async () => {
    renderReport({ body: report }, 'ne')
    const panel = await screen.findByRole('region', { name: 'तपाईंको प्रदर्शन' })
    expect(within(panel).getByText('स्थान').nextElementSibling).toHaveTextContent('१२ मध्ये २')
    expect(within(panel).getByText('पर्सेन्टाइल').nextElementSibling).toHaveTextContent('८१.८२')
    expect(screen.getByText('३ मध्ये ०.८०')).toBeInTheDocument()
    // 2026-11-20T08:00Z is 13:45 on 4 Mangsir 2083 in Nepal.
    expect(screen.getByText('२०८३ मंसिर ४, १३:४५')).toBeInTheDocument()
    expect(document.body.textContent).not.toMatch(/[0-9]/)
  })

  it('shows the load error', async () => {
    renderReport({ status: 404, body: { detail: 'x', code: 'not_found' } })
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load this report card.')
  })
})
