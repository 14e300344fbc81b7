import { describe, expect, it } from 'vitest'
import type { AdminQuestion } from './quizzes.api'
import {
  MAX_OPTIONS,
  MIN_OPTIONS,
  canAddOption,
  canRemoveOption,
  correctIndex,
  draftFromQuestion,
  emptyOption,
  newQuestionDraft,
  toQuestionPayload,
} from './question-draft'

describe('a new question', () => {
  it('starts with four empty options, the first one correct', () => {
    const { options } = newQuestionDraft()
    expect(options).toHaveLength(4)
    expect(options.map((option) => option.is_correct)).toEqual([true, false, false, false])
  })
})

describe('the option list', () => {
  it('allows 2 to 10 options', () => {
    expect([MIN_OPTIONS - 1, MIN_OPTIONS, MAX_OPTIONS].map(canRemoveOption)).toEqual([false, false, true])
    expect([MIN_OPTIONS, MAX_OPTIONS - 1, MAX_OPTIONS].map(canAddOption)).toEqual([true, true, false])
  })
  it('adds new options as incorrect', () => {
    expect(emptyOption().is_correct).toBe(false)
  })
  it('names the first marked option correct, or the first option when none is', () => {
    expect(correctIndex([{ is_correct: false }, { is_correct: true }, { is_correct: true }])).toBe(1)
    expect(correctIndex([{ is_correct: false }, { is_correct: false }])).toBe(0)
  })
})

const stored: AdminQuestion = {
  id: 7,
  revision_id: 70,
  text: {
    en: 'Capital of Nepal? $x$',
    ne: 'नेपालको राजधानी?',
    html: { en: 'Capital of Nepal? <math></math>', ne: 'नेपालको राजधानी?' },
  },
  hint: null,
  topic: 'Geography',
  image: {
    svg: '<svg xmlns="http://www.w3.org/2000/svg"/>',
    picture: null,
    caption: { en: 'Map', ne: '', html: null },
  },
  options: [
    { id: 1, text: { en: 'Pokhara', ne: '', html: null }, is_correct: false, image: null },
    { id: 2, text: { en: 'Kathmandu', ne: 'काठमाडौं', html: null }, is_correct: true, image: null },
  ],
  key: null,
  type: 'choice',
  marks: null,
  word_limit: null,
  model_answer: null,
  answer: null,
  decimals: null,
}

describe('editing a stored question', () => {
  it('starts from its content with its correct option', () => {
    const draft = draftFromQuestion(stored)
    // The form edits the TeX source; the rendered html is the server's, made again from what is sent.
    expect(draft.text).toEqual({ en: 'Capital of Nepal? $x$', ne: 'नेपालको राजधानी?' })
    expect(draft.hint).toEqual({ en: '', ne: '' })
    expect(draft.image.caption).toEqual({ en: 'Map', ne: '' })
    expect(draft.options.map((option) => option.is_correct)).toEqual([false, true])
  })
  it('repairs stored data with several or no correct options to exactly one', () => {
    const several = draftFromQuestion({
      ...stored,
      options: stored.options.map((option) => ({ ...option, is_correct: true })),
    })
    expect(several.options.map((option) => option.is_correct)).toEqual([true, false])
    const none = draftFromQuestion({
      ...stored,
      options: stored.options.map((option) => ({ ...option, is_correct: false })),
    })
    expect(none.options.map((option) => option.is_correct)).toEqual([true, false])
  })
})

describe('toQuestionPayload', () => {
  it('sends the API shape, without option ids or html, with null for a missing hint or image', () => {
    const payload = toQuestionPayload(draftFromQuestion(stored))
    expect(payload).toEqual({
      text: { en: 'Capital of Nepal? $x$', ne: 'नेपालको राजधानी?' },
      hint: null,
      topic: 'Geography',
      image: { svg: stored.image!.svg, caption: { en: 'Map', ne: '' } },
      options: [
        { text: { en: 'Pokhara', ne: '' }, is_correct: false, image: null },
        { text: { en: 'Kathmandu', ne: 'काठमाडौं' }, is_correct: true, image: null },
      ],
    })
  })
  it('sends a hint given in one language only, and drops an image with blank SVG', () => {
    const draft = newQuestionDraft()
    draft.hint = { en: '', ne: 'सङ्केत' }
    draft.image = { svg: '   ', picture: null, caption: { en: 'ignored', ne: '' } }
    const payload = toQuestionPayload(draft)
    expect(payload.hint).toEqual({ en: '', ne: 'सङ्केत' })
    expect(payload.image).toBeNull()
  })
})
