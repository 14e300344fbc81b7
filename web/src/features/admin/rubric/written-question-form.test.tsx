import type { Rubric } from '@quiz/contracts'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, polyfillDialog } from '../../../test/page-test-utils'
import { renderWithProviders } from '../../../test/render'
import { QuestionForm } from '../quizzes/question-form'
import type { BankQuestion } from '../bank/bank.api'
import { draftFromRubric, moved, newGroup, newItem, toRubricInput, withoutGroup } from './rubric-draft'

const stored: BankQuestion = {
  id: 31,
  revision_id: 310,
  text: { en: 'Explain federalism.', ne: 'सङ्घीयता व्याख्या गर्नुहोस्।', html: null },
  hint: null,
  topic: 'Constitution',
  image: null,
  options: [],
  key: null,
  tags: [],
  difficulty: null,
  source: null,
  type: 'written',
  marks: 10,
  word_limit: 250,
  model_answer: { en: 'Power is shared.', ne: '', html: null },
  answer: null,
  decimals: null,
}

const rubric: Rubric = {
  question_id: 31,
  marks: 10,
  scoring: 'positive',
  floor: 0,
  ceiling: 10,
  groups: [{ id: 5, title: { en: 'Language', ne: 'भाषा' }, exclusive: true }],
  items: [
    { id: 51, group_id: null, points: 4, title: { en: 'Defines it', ne: 'परिभाषा' }, explanation: null },
    { id: 52, group_id: 5, points: 2, title: { en: 'Clear', ne: 'स्पष्ट' }, explanation: null },
  ],
  revision: 3,
}

const rescoredNone = { answers: 0, attempts: 0, learners_notified: 0, rank_changes: [] }

/** Pastes a value: typing it key by key re-renders the long form at every key. */
async function fill(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, value: string) {
  await user.click(field)
  await user.paste(value)
}

function renderForm(question: BankQuestion | null) {
  const onSaved = vi.fn()
  renderWithProviders(<QuestionForm quizId={null} question={question} onSaved={onSaved} onCancel={vi.fn()} />)
  return { onSaved, user: userEvent.setup() }
}

describe('the rubric draft', () => {
  it('names stored groups by id and new ones by their place, and leaves blank bounds to the defaults', () => {
    const draft = draftFromRubric(rubric)
    const group = newGroup()
    const item = { ...newItem(), points: '-1.5', group: group.key, title: { en: 'Off topic', ne: 'विषयान्तर' } }
    const input = toRubricInput({ ...draft, groups: [...draft.groups, group], items: [...draft.items, item] }, true)
    expect(input).toMatchObject({ scoring: 'positive', floor: 0, ceiling: 10, revision: 3, dry_run: true })
    expect(input.items).toEqual([
      { id: 51, points: 4, title: { en: 'Defines it', ne: 'परिभाषा' }, explanation: null },
      { id: 52, group_id: 5, points: 2, title: { en: 'Clear', ne: 'स्पष्ट' }, explanation: null },
      { group_index: 1, points: -1.5, title: { en: 'Off topic', ne: 'विषयान्तर' }, explanation: null },
    ])
    expect(withoutGroup(draft, draft.groups[0]!.key).items.every((entry) => entry.group === '')).toBe(true)
    expect(moved(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b'])
  })
})

describe('the question form’s written type', () => {
  beforeAll(polyfillDialog)

  it('creates a written question with marks, a word limit, a model answer and a rubric', async () => {
    const net = fakeNetwork({
      'POST /api/admin/bank/questions/': () => ({ status: 201, body: { ...stored, id: 40 } }),
      'PUT /api/admin/bank/questions/40/rubric/': () => ({
        body: { rubric: { ...rubric, question_id: 40, revision: 1 }, rescored: rescoredNone },
      }),
    })
    const { onSaved, user } = renderForm(null)
    await user.click(screen.getByRole('radio', { name: 'Written answer' }))
    expect(screen.queryByRole('group', { name: /Options/ })).not.toBeInTheDocument()
    await fill(user, screen.getByLabelText('Question (English)'), 'Explain federalism.')
    await fill(user, screen.getByLabelText('Marks'), '10')
    await fill(user, screen.getByLabelText('Word limit'), '250')
    await fill(user, screen.getByLabelText('Model answer (English)'), 'Power is shared.')
    await user.click(screen.getByRole('radio', { name: /Negative/ }))
    await user.click(screen.getByRole('button', { name: 'Add item' }))
    await fill(user, screen.getByLabelText('Points of item 1'), '-2')
    await fill(user, screen.getByLabelText('Title of item 1 (English)'), 'No example')
    await user.click(screen.getByRole('button', { name: 'Add item' }))
    await fill(user, screen.getByLabelText('Points of item 2'), '-1')
    await fill(user, screen.getByLabelText('Title of item 2 (English)'), 'Spelling')
    // The keyboard reorders: item 2 moves up.
    await user.click(screen.getByRole('button', { name: 'Move item 2 up' }))
    expect(screen.getByLabelText('Title of item 1 (English)')).toHaveValue('Spelling')
    await user.click(screen.getByRole('button', { name: 'Save Question' }))

    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    expect(net.callsTo('POST', '/api/admin/bank/questions/')[0]!.body).toMatchObject({
      type: 'written',
      options: [],
      marks: 10,
      word_limit: 250,
      model_answer: { en: 'Power is shared.', ne: '' },
    })
    // A new question has no marked answer: no dry run.
    const puts = net.callsTo('PUT', '/api/admin/bank/questions/40/rubric/')
    expect(puts).toHaveLength(1)
    expect(puts[0]!.body).toMatchObject({
      scoring: 'negative',
      dry_run: false,
      items: [
        { points: -1, title: { en: 'Spelling', ne: '' } },
        { points: -2, title: { en: 'No example', ne: '' } },
      ],
    })
  })

  it('reorders items by dragging', async () => {
    fakeNetwork({ 'GET /api/admin/bank/questions/31/rubric/': () => ({ body: rubric }) })
    renderForm(stored)
    const items = await screen.findAllByText(/^Item \d$/)
    const handle = (index: number) => items[index]!.parentElement!.querySelector('[draggable="true"]')!
    const target = items[0]!.closest('li')!
    const dataTransfer = { setData: vi.fn(), effectAllowed: '' }
    fireEvent.dragStart(handle(1), { dataTransfer })
    fireEvent.dragOver(target, { dataTransfer })
    fireEvent.drop(target, { dataTransfer })
    expect(screen.getByLabelText('Title of item 1 (English)')).toHaveValue('Clear')
  })

  it('shows the dry run of a change that re-marks answers and saves only once confirmed', async () => {
    const net = fakeNetwork({
      'GET /api/admin/bank/questions/31/rubric/': () => ({ body: rubric }),
      'PUT /api/admin/bank/questions/31/': () => ({ body: stored }),
      'PUT /api/admin/bank/questions/31/rubric/': ({ body }) =>
        (body as { dry_run: boolean }).dry_run
          ? {
              body: {
                rubric,
                rescored: {
                  answers: 7,
                  attempts: 7,
                  learners_notified: 3,
                  rank_changes: [{ username: 'sita', quiz_id: 2, old_rank: 4, new_rank: 2 }],
                },
              },
            }
          : { body: { rubric: { ...rubric, revision: 4 }, rescored: rescoredNone } },
    })
    const { onSaved, user } = renderForm(stored)
    const points = await screen.findByLabelText('Points of item 1')
    expect(screen.getByLabelText('Marks')).toHaveValue('10')
    await user.clear(points)
    await user.type(points, '5')
    await user.click(screen.getByRole('button', { name: 'Save Question' }))
    const dialog = await screen.findByRole('dialog', { name: 'This change re-marks answers' })
    expect(dialog).toHaveTextContent('7 marked answers get a new score.')
    expect(dialog).toHaveTextContent('3 learners whose marks were released are told.')
    expect(dialog).toHaveTextContent('sita: from 4 to 2')
    expect(onSaved).not.toHaveBeenCalled()
    await user.click(within(dialog).getByRole('button', { name: 'Save and re-mark' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    const puts = net.callsTo('PUT', '/api/admin/bank/questions/31/rubric/')
    expect(puts.map((call) => (call.body as { dry_run: boolean }).dry_run)).toEqual([true, false])
    expect(puts[1]!.body).toMatchObject({
      revision: 3,
      items: [
        { id: 51, points: 5 },
        { id: 52, group_id: 5 },
      ],
    })
  })

  it('says when someone else changed the rubric meanwhile, and reloads it', async () => {
    let revision = 3
    fakeNetwork({
      'GET /api/admin/bank/questions/31/rubric/': () => ({ body: { ...rubric, revision } }),
      'PUT /api/admin/bank/questions/31/': () => ({ body: stored }),
      'PUT /api/admin/bank/questions/31/rubric/': () => ({
        status: 409,
        body: { detail: 'The rubric was changed by someone else meanwhile.', code: 'rubric_changed' },
      }),
    })
    const { onSaved, user } = renderForm(stored)
    await screen.findByLabelText('Points of item 1')
    await user.click(screen.getByRole('button', { name: 'Save Question' }))
    expect(await screen.findByText(/Someone else changed this rubric/)).toBeInTheDocument()
    revision = 4
    await user.click(screen.getByRole('button', { name: 'Reload the rubric' }))
    await waitFor(() => expect(screen.queryByText(/Someone else changed this rubric/)).not.toBeInTheDocument())
    expect(onSaved).not.toHaveBeenCalled()
  })
})
