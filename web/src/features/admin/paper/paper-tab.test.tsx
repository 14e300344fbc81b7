import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { answerFetch, polyfillDialog, signInAs, type SentRequest } from '../../../test/page-test-utils'
import { renderWithProviders } from '../../../test/render'
import { paperTotals, paperDraft, toSectionsPayload, type DrawDraft } from './paper-draft'
import { Component as PaperPage } from './paper-page'

vi.setConfig({ testTimeout: 20_000 })

const question = (id: number, en: string) => ({
  id,
  text: { en, ne: '' },
  hint: null,
  topic: 'Constitution',
  image: null,
  options: [],
})

const quiz = {
  id: 5,
  title: { en: 'Nayab Subba prelim', ne: 'नायब सुब्बा प्रारम्भिक' },
  start_time: '2026-11-22T07:00:00.000Z',
  end_time: null,
  duration_minutes: 45,
  difficulty: 'medium',
  is_paid_tier: false,
  allowed_attempts: 3,
  shuffle_questions: false,
  shuffle_options: false,
  question_count: 12,
  questions: [question(1, 'Article 1 says?'), question(2, 'Who appoints the PSC chair?')],
  draw_mode: 'frozen',
  warnings: [],
  sections: [
    {
      id: 10,
      title: { en: 'Constitution', ne: 'संविधान' },
      marks_correct: 2,
      marks_wrong: 0.4,
      time_limit_minutes: 15,
      items: [{ question_id: 1 }, { question_id: 2 }],
    },
    {
      id: 11,
      title: { en: 'Current affairs', ne: '' },
      marks_correct: 1,
      marks_wrong: 0.25,
      time_limit_minutes: 30,
      items: [
        {
          draw: { topic: 'Current affairs', tags: [], difficulty: 'easy', source: null, count: 10 },
          pool: 32,
          drawn: Array.from({ length: 10 }, (_, i) => ({
            id: 21 + i,
            text: { en: `Current affairs question ${i + 1}`, ne: `समसामयिक प्रश्न ${i + 1}` },
            topic: 'Current affairs',
          })),
        },
      ],
    },
  ],
}

let handler: (key: string, body: unknown) => { status: number; body: unknown }
const sent: SentRequest[] = []
function standard(key: string): { status: number; body: unknown } {
  if (key === 'GET /api/admin/quizzes/5/') return { status: 200, body: quiz }
  if (key === 'GET /api/admin/bank/facets/')
    return { status: 200, body: { topics: [], tags: [], sources: [], total: 0 } }
  if (
    key.startsWith('GET /api/admin/bank/questions/?') &&
    key.includes('page_size=1&') === false &&
    key.endsWith('page_size=1')
  )
    return {
      status: 200,
      body: {
        count: key.includes('tag=Nepal&tag=History') ? 7 : key.includes('difficulty=hard') ? 3 : 32,
        results: [],
      },
    }
  if (key.startsWith('GET /api/admin/bank/questions/?'))
    return {
      status: 200,
      body: {
        count: 2,
        results: [1, 7].map((id) => ({
          id,
          text: { en: `Bank question ${id}`, ne: '' },
          topic: 'Constitution',
          tags: [],
          difficulty: null,
          source: null,
          option_count: 4,
          used_in: [],
          responses: 0,
          facility: null,
        })),
      },
    }
  // Whole passages of 2, 3 and 3 questions for the topic "Reading"; none otherwise.
  if (key.startsWith('GET /api/admin/bank/passages/pool/'))
    return { status: 200, body: { passage_sizes: key.includes('topic=Reading') ? [3, 2, 3] : [] } }
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

describe('the paper model', () => {
  it('totals questions, maximum marks (exact, in hundredths) and minutes', () => {
    const draft = paperDraft(quiz as never)
    expect(paperTotals(draft)).toEqual({ questions: 12, maxHundredths: 2 * 200 + 10 * 100, minutes: 45 })
    draft[1]!.marks_correct = '0.1'
    draft[1]!.items.push({ ...draft[1]!.items[0]!, key: 'x', count: '20' } as never)
    expect(paperTotals(draft).maxHundredths).toBe(400 + 30 * 10)
    draft[0]!.time_limit = ''
    expect(paperTotals(draft).minutes).toBeNull()
  })

  it('sends marks off as the positive number, empty as null, and draws without unset filters', () => {
    const draft = paperDraft(quiz as never)
    draft[0]!.marks_wrong = '−0.5'
    draft[1]!.time_limit = ''
    draft[1]!.items[0] = { ...(draft[1]!.items[0] as DrawDraft), tags: 'a; B ,a', difficulty: '', count: '3x' }
    const body = toSectionsPayload(draft)
    expect(body.sections[0]).toMatchObject({ marks_correct: 2, marks_wrong: 0.5, time_limit_minutes: 15 })
    expect(body.sections[0]!.items).toEqual([{ question_id: 1 }, { question_id: 2 }])
    expect(body.sections[1]!.time_limit_minutes).toBeNull()
    expect(body.sections[1]!.items).toEqual([{ draw: { topic: 'Current affairs', tags: ['a', 'B'], count: '3x' } }])
  })

  it('makes one +1 / −0.2 section of a quiz from before papers', () => {
    const [only, ...rest] = paperDraft({ id: 1, questions: [question(4, 'Q')] } as never)
    expect(rest).toEqual([])
    expect(only).toMatchObject({ marks_correct: '1', marks_wrong: '0.2', time_limit: '' })
    expect(only!.items).toMatchObject([{ kind: 'fixed', question_id: 4 }])
  })
})

describe('Paper tab', () => {
  it('shows the sections, their items, the totals and each draw pool', async () => {
    renderPaper()
    expect(await screen.findByRole('heading', { name: '1. Constitution' })).toBeInTheDocument()
    expect(screen.getByText('Whole paper:').parentElement).toHaveTextContent(
      '12 questions, maximum 14.00 marks. 45 minutes in all.',
    )
    expect(screen.getByText(/This section: 2 questions, maximum 4.00 marks/)).toBeInTheDocument()
    expect(screen.getByText('Article 1 says?')).toBeInTheDocument()
    expect(screen.getAllByLabelText('Marks taken off for a wrong answer')[0]).toHaveValue('0.4')
    const draw = screen.getByRole('group', { name: 'Draw 1' })
    expect(within(draw).getByLabelText('Questions to draw')).toHaveValue('10')
    expect(await within(draw).findByText('32 match')).toBeInTheDocument()
  })

  it('counts the pool live while a draw is edited, and says when it is too small', async () => {
    const user = userEvent.setup()
    renderPaper()
    const draw = await screen.findByRole('group', { name: 'Draw 1' })
    await user.selectOptions(within(draw).getByLabelText('Difficulty'), 'hard')
    expect(
      await within(draw).findByText('3 match This draw needs 10.', undefined, { timeout: 3000 }),
    ).toBeInTheDocument()
    expect(sent.some((request) => request.key.includes('difficulty=hard') && request.key.endsWith('page_size=1'))).toBe(
      true,
    )
  })

  it('counts the pool of a draw with several tags live too, every tag sent', async () => {
    const user = userEvent.setup()
    renderPaper()
    const draw = await screen.findByRole('group', { name: 'Draw 1' })
    await user.type(within(draw).getByLabelText('Tags (all of them)'), 'Nepal, History')
    expect(
      await within(draw).findByText('7 match This draw needs 10.', undefined, { timeout: 3000 }),
    ).toBeInTheDocument()
    const asked = sent.filter((request) => request.key.endsWith('page_size=1')).at(-1)!.key
    expect(asked).toContain('tag=Nepal&tag=History')
  })

  it("counts a whole-passage draw's questions live, and says before saving when no set of passages makes its count", async () => {
    const user = userEvent.setup()
    renderPaper()
    const draw = await screen.findByRole('group', { name: 'Draw 1' })
    await user.click(within(draw).getByRole('checkbox', { name: 'Whole passages only' }))
    const topic = within(draw).getByLabelText('Topic')
    await user.clear(topic)
    await user.type(topic, 'Reading')
    // 10 is no sum of 2, 3 and 3.
    expect(
      await within(draw).findByText(
        '3 whole passages match: 8 questions (of 2, 3, 3 questions) No set of whole passages makes 10 questions: change the count or the filters.',
        undefined,
        { timeout: 3000 },
      ),
    ).toBeInTheDocument()
    const count = within(draw).getByLabelText('Questions to draw')
    await user.clear(count)
    await user.type(count, '5')
    expect(await within(draw).findByText('3 whole passages match: 8 questions (of 2, 3, 3 questions)')).toHaveClass(
      'paper-pool',
    )
    expect(within(draw).queryByText(/No set of whole passages/)).toBeNull()
    const asked = sent.filter((request) => request.key.startsWith('GET /api/admin/bank/passages/pool/')).at(-1)!.key
    expect(asked).toContain('topic=Reading')
    expect(asked).toContain('difficulty=easy')
  })

  it('says in Nepali, with Devanagari digits, that whole passages cannot make the count', async () => {
    const user = userEvent.setup()
    renderPaper('ne')
    const draw = await screen.findByRole('group', { name: 'ड्र १' })
    await user.click(within(draw).getByRole('checkbox', { name: 'पूरा अनुच्छेद मात्र' }))
    expect(
      await within(draw).findByText(
        '० पूरा अनुच्छेद मिल्छन्: ० प्रश्न पूरा अनुच्छेदहरूबाट १० प्रश्न बन्दैनन्: सङ्ख्या वा छनोट बदल्नुहोस्।',
        undefined,
        { timeout: 3000 },
      ),
    ).toBeInTheDocument()
  })

  it('saves the paper and puts the server refusals on the fields they name', async () => {
    const user = userEvent.setup()
    handler = (key) => {
      if (key === 'PUT /api/admin/quizzes/5/sections/')
        return {
          status: 400,
          body: {
            detail: 'Invalid input.',
            errors: {
              'sections.0.marks_correct': ['Marks may have at most 2 decimals.'],
              'sections.1.items.0.draw.count': ['Only 7 questions match.'],
              sections: ['Either every section has a time limit or none has.'],
            },
          },
        }
      return standard(key)
    }
    renderPaper()
    await screen.findByRole('heading', { name: '1. Constitution' })
    const marks = screen.getAllByLabelText('Marks for a right answer')[0]!
    await user.clear(marks)
    await user.type(marks, '2.125')
    await user.clear(screen.getAllByLabelText('Marks taken off for a wrong answer')[1]!)
    await user.type(screen.getAllByLabelText('Marks taken off for a wrong answer')[1]!, '0.5')
    await user.click(screen.getByRole('button', { name: 'Save Paper' }))
    expect(await screen.findByText('Only 7 questions match.')).toBeInTheDocument()
    expect(within(screen.getByRole('group', { name: 'Draw 1' })).getByLabelText('Questions to draw')).toHaveAttribute(
      'aria-invalid',
      'true',
    )
    expect(screen.getAllByLabelText('Marks for a right answer')[0]).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByRole('alert')).toHaveTextContent('sections: Either every section has a time limit or none has.')
    expect(puts()[0]!.body).toMatchObject({
      sections: [
        { marks_correct: 2.125, marks_wrong: 0.4 },
        { marks_wrong: 0.5, time_limit_minutes: 30 },
      ],
    })
  })

  it('picks fixed questions from the bank, never one already in the paper, and saves them', async () => {
    const user = userEvent.setup()
    handler = (key) => {
      if (key === 'PUT /api/admin/quizzes/5/sections/') return { status: 200, body: { ...quiz, warnings: [] } }
      return standard(key)
    }
    renderPaper()
    await screen.findByRole('heading', { name: '2. Current affairs' })
    await user.click(screen.getAllByRole('button', { name: 'Pick questions from the bank' })[1]!)
    const dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByText('In the paper')).toBeInTheDocument()
    expect(within(dialog).queryByRole('button', { name: 'Add question 1' })).not.toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Add question 7' }))
    expect(within(dialog).queryByRole('button', { name: 'Add question 7' })).not.toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Done' }))
    expect(screen.getByText('Bank question 7')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Save Paper' }))
    expect(await screen.findByText('The paper was saved.')).toBeInTheDocument()
    expect((puts()[0]!.body as { sections: { items: unknown[] }[] }).sections[1]!.items).toEqual([
      { draw: { topic: 'Current affairs', difficulty: 'easy', count: 10 } },
      { question_id: 7 },
    ])
  })

  it('shows maths rendered, never TeX, in the fixed items, the drawn questions and the bank picker', async () => {
    const user = userEvent.setup()
    const half = {
      en: 'Half is $\\frac{1}{2}$',
      ne: '',
      html: { en: 'Half is <math><mfrac><mn>1</mn><mn>2</mn></mfrac></math>', ne: '' },
    }
    const withMaths = {
      ...quiz,
      questions: [{ ...question(1, ''), text: half }, question(2, 'Who appoints the PSC chair?')],
      sections: quiz.sections.map((section) => ({
        ...section,
        items: section.items.map((item) =>
          'drawn' in item ? { ...item, drawn: item.drawn.map((drawn) => ({ ...drawn, text: half })) } : item,
        ),
      })),
    }
    handler = (key) => {
      if (key === 'GET /api/admin/quizzes/5/') return { status: 200, body: withMaths }
      if (key.startsWith('GET /api/admin/bank/questions/?') && !key.endsWith('page_size=1')) {
        const list = standard(key).body as { results: object[] }
        return { status: 200, body: { ...list, results: list.results.map((row) => ({ ...row, text: half })) } }
      }
      return standard(key)
    }
    const { container } = renderPaper()
    await screen.findByRole('heading', { name: '2. Current affairs' })
    const drawn = screen.getByRole('list', { name: 'Drawn for everyone: Draw 1' })
    expect(drawn.querySelectorAll('math')).toHaveLength(10)
    expect(container.querySelector('.paper-fixed math')).not.toBeNull()
    expect(container.querySelector('.paper')).not.toHaveTextContent('$')
    await user.click(screen.getAllByRole('button', { name: 'Pick questions from the bank' })[1]!)
    const dialog = await screen.findByRole('dialog')
    await within(dialog).findByRole('button', { name: 'Add question 7' })
    expect(dialog.querySelectorAll('math')).toHaveLength(2)
    expect(dialog).not.toHaveTextContent('$')
  })

  it('adds every question shown and not yet in the paper with one button, saved in one request', async () => {
    const user = userEvent.setup()
    const row = (id: number) => ({
      id,
      text: { en: `Bank question ${id}`, ne: '' },
      topic: 'Constitution',
      tags: [],
      difficulty: null,
      source: null,
      option_count: 4,
      used_in: [],
      responses: 0,
      facility: null,
    })
    handler = (key) => {
      if (key === 'PUT /api/admin/quizzes/5/sections/') return { status: 200, body: { ...quiz, warnings: [] } }
      if (key.startsWith('GET /api/admin/bank/questions/?') && !key.endsWith('page_size=1'))
        return { status: 200, body: { count: 4, results: [1, 7, 8, 9].map(row) } }
      return standard(key)
    }
    renderPaper()
    await screen.findByRole('heading', { name: '2. Current affairs' })
    await user.click(screen.getAllByRole('button', { name: 'Pick questions from the bank' })[1]!)
    const dialog = await screen.findByRole('dialog')
    await user.click(await within(dialog).findByRole('button', { name: 'Add all 3 shown' }))
    expect(within(dialog).getByRole('button', { name: 'Add all shown' })).toBeDisabled()
    expect(within(dialog).getAllByText('In the paper')).toHaveLength(4)
    await user.click(within(dialog).getByRole('button', { name: 'Done' }))
    await user.click(screen.getByRole('button', { name: 'Save Paper' }))
    expect(await screen.findByText('The paper was saved.')).toBeInTheDocument()
    expect(puts()).toHaveLength(1)
    expect((puts()[0]!.body as { sections: { items: unknown[] }[] }).sections[1]!.items).toEqual([
      { draw: { topic: 'Current affairs', difficulty: 'easy', count: 10 } },
      { question_id: 7 },
      { question_id: 8 },
      { question_id: 9 },
    ])
  })

  it('says Add all shown in Nepali', async () => {
    const user = userEvent.setup()
    renderPaper('ne')
    await user.click((await screen.findAllByRole('button', { name: 'बैंकबाट प्रश्न छान्नुहोस्' }))[1]!)
    const dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByRole('button', { name: 'देखिएको १ प्रश्न थप्नुहोस्' })).toBeEnabled()
  })

  it('adds and removes sections and draws, and shows the paper warnings', async () => {
    const user = userEvent.setup()
    handler = (key) =>
      key === 'GET /api/admin/quizzes/5/'
        ? {
            status: 200,
            body: {
              ...quiz,
              warnings: [{ path: 'sections.1.items.0', message: 'This draw needs 10 questions but only 4 match now.' }],
            },
          }
        : standard(key)
    renderPaper()
    expect(
      await screen.findByText(/Section 2, item 1: This draw needs 10 questions but only 4 match now\./),
    ).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: '+ Add a section' }))
    expect(screen.getByRole('heading', { name: '3. Section 3' })).toBeInTheDocument()
    await user.click(screen.getAllByRole('button', { name: 'Add a draw' })[2]!)
    expect(screen.getByText('Whole paper:').parentElement).toHaveTextContent('13 questions')
    await user.click(screen.getByRole('button', { name: 'Remove section: Section 3' }))
    expect(screen.getByText('Whole paper:').parentElement).toHaveTextContent('12 questions')
  })

  it('draws a frozen paper again, and says when finished attempts forbid it', async () => {
    const user = userEvent.setup()
    let calls = 0
    handler = (key) => {
      if (key === 'POST /api/admin/quizzes/5/redraw/') {
        calls += 1
        return calls === 1
          ? { status: 200, body: quiz }
          : { status: 409, body: { detail: 'Learners have finished this quiz.', code: 'conflict' } }
      }
      return standard(key)
    }
    renderPaper()
    // The frozen draw's questions are listed under their draw.
    const list = await screen.findByRole('list', { name: 'Drawn for everyone: Draw 1' })
    expect(within(list).getAllByRole('listitem')).toHaveLength(10)
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('Current affairs question 1')
    expect(screen.queryByRole('button', { name: 'Freeze now' })).not.toBeInTheDocument()
    await user.click(await screen.findByRole('button', { name: 'Draw again' }))
    expect(await screen.findByText(/attempts that start from now get them/)).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Draw again' }))
    expect(await screen.findByText(/learners have already finished it/)).toBeInTheDocument()
    expect(screen.getByLabelText('One draw for everyone (frozen paper)')).toBeChecked()
  })

  it('freezes a paper drawn per attempt now and lists what it drew; an unsaved edit must be saved first', async () => {
    const user = userEvent.setup()
    const perAttempt = {
      ...quiz,
      draw_mode: 'per_attempt',
      sections: quiz.sections.map((section) => ({
        ...section,
        items: section.items.map((item) => ('drawn' in item ? { ...item, drawn: [] } : item)),
      })),
    }
    handler = (key) => {
      if (key === 'GET /api/admin/quizzes/5/') return { status: 200, body: perAttempt }
      if (key === 'POST /api/admin/quizzes/5/freeze/') return { status: 200, body: quiz }
      return standard(key)
    }
    renderPaper()
    const freeze = await screen.findByRole('button', { name: 'Freeze now' })
    expect(screen.queryByRole('list', { name: /Drawn for everyone/ })).not.toBeInTheDocument()
    await user.type(screen.getAllByLabelText('Questions to draw')[0]!, '5')
    expect(freeze).toBeDisabled()
    expect(screen.getByText(/Save the paper first/)).toBeInTheDocument()
    await user.clear(screen.getAllByLabelText('Questions to draw')[0]!)
    await user.type(screen.getAllByLabelText('Questions to draw')[0]!, '10')
    expect(freeze).toBeEnabled()
    await user.click(freeze)
    expect(await screen.findByText(/every attempt that starts from now gets them/)).toBeInTheDocument()
    expect(sent.some((request) => request.key === 'POST /api/admin/quizzes/5/freeze/')).toBe(true)
    expect(screen.getByRole('list', { name: 'Drawn for everyone: Draw 1' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Draw again' })).toBeInTheDocument()
    expect(screen.getByLabelText('One draw for everyone (frozen paper)')).toBeChecked()
  })

  it('says in Nepali why a paper cannot be drawn again', async () => {
    const user = userEvent.setup()
    handler = (key) =>
      key === 'POST /api/admin/quizzes/5/redraw/'
        ? { status: 409, body: { detail: 'This quiz has finished attempts.', code: 'conflict' } }
        : standard(key)
    renderPaper('ne')
    expect(await screen.findByText('समसामयिक प्रश्न 1')).toBeInTheDocument()
    await user.click(await screen.findByRole('button', { name: 'फेरि निकाल्नुहोस्' }))
    expect(await screen.findByText(/विद्यार्थीले यसलाई सकाइसकेका छन्/)).toBeInTheDocument()
  })

  it('says a failure without field errors plainly', async () => {
    const user = userEvent.setup()
    handler = (key) =>
      key === 'PUT /api/admin/quizzes/5/sections/'
        ? { status: 500, body: { detail: 'Something went wrong on our side.', code: 'server_error' } }
        : standard(key)
    renderPaper()
    await user.click(await screen.findByRole('button', { name: 'Save Paper' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to save the paper. Please try again.')
  })

  it('changes the draw mode', async () => {
    const user = userEvent.setup()
    handler = (key) =>
      key === 'PATCH /api/admin/quizzes/5/'
        ? { status: 200, body: { ...quiz, draw_mode: 'per_attempt' } }
        : standard(key)
    renderPaper()
    await user.click(await screen.findByLabelText('Each attempt draws its own questions (unseen ones first)'))
    await waitFor(() =>
      expect(sent.find((request) => request.key === 'PATCH /api/admin/quizzes/5/')?.body).toEqual({
        draw_mode: 'per_attempt',
      }),
    )
    expect(await screen.findByLabelText('Each attempt draws its own questions (unseen ones first)')).toBeChecked()
    expect(screen.queryByRole('button', { name: 'Draw again' })).not.toBeInTheDocument()
  })

  it('reads in Nepali with Devanagari digits', async () => {
    renderPaper('ne')
    expect(await screen.findByRole('heading', { name: '१. संविधान' })).toBeInTheDocument()
    expect(screen.getByText('पूरा प्रश्नपत्र:').parentElement).toHaveTextContent('१२ प्रश्न, पूर्णाङ्क १४.००। जम्मा ४५ मिनेट।')
    expect(await screen.findByText('३२ मिल्छन्')).toBeInTheDocument()
  })
})
