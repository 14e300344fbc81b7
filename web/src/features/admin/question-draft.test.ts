import { describe, expect, it } from 'vitest'
import type { AdminQuestion } from './admin.api'
import {
  MAX_OPTIONS,
  MIN_OPTIONS,
  addOption,
  canAddOption,
  canRemoveOption,
  draftFromQuestion,
  markCorrect,
  newQuestionDraft,
  removeOption,
  toQuestionPayload,
  type OptionDraft,
} from './question-draft'

const correctCount = (options: OptionDraft[]) => options.filter((option) => option.isCorrect).length
const withOptions = (count: number) => {
  let options = newQuestionDraft().options
  while (options.length < count) options = addOption(options)
  while (options.length > count) options = removeOption(options, options[options.length - 1]!.key)
  return options
}

describe('a new question', () => {
  it('starts with four empty options, the first one correct', () => {
    const { options } = newQuestionDraft()
    expect(options).toHaveLength(4)
    expect(options.map((option) => option.isCorrect)).toEqual([true, false, false, false])
    expect(new Set(options.map((option) => option.key)).size).toBe(4)
  })
})

describe('markCorrect', () => {
  it('makes the chosen option the only correct one', () => {
    const { options } = newQuestionDraft()
    const marked = markCorrect(options, options[2]!.key)
    expect(marked.map((option) => option.isCorrect)).toEqual([false, false, true, false])
  })
  it('ignores an unknown option', () => {
    const { options } = newQuestionDraft()
    expect(markCorrect(options, 'nope')).toBe(options)
  })
})

describe('adding and removing options', () => {
  it('adds options up to 10 and no further', () => {
    const ten = withOptions(MAX_OPTIONS)
    expect(ten).toHaveLength(10)
    expect(canAddOption(ten)).toBe(false)
    expect(addOption(ten)).toBe(ten)
    expect(correctCount(ten)).toBe(1)
  })
  it('adds new options as incorrect', () => {
    const five = addOption(newQuestionDraft().options)
    expect(five).toHaveLength(5)
    expect(five[4]!.isCorrect).toBe(false)
  })
  it('removes options down to 2 and no further', () => {
    const two = withOptions(MIN_OPTIONS)
    expect(two).toHaveLength(2)
    expect(canRemoveOption(two)).toBe(false)
    expect(removeOption(two, two[1]!.key)).toBe(two)
  })
  it('makes the first remaining option correct when the correct one is removed', () => {
    const { options } = newQuestionDraft()
    const thirdCorrect = markCorrect(options, options[2]!.key)
    const removed = removeOption(thirdCorrect, options[2]!.key)
    expect(removed.map((option) => option.isCorrect)).toEqual([true, false, false])
  })
  it('keeps the correct option when another one is removed', () => {
    const { options } = newQuestionDraft()
    const secondCorrect = markCorrect(options, options[1]!.key)
    const removed = removeOption(secondCorrect, options[0]!.key)
    expect(removed.map((option) => option.isCorrect)).toEqual([true, false, false])
    expect(removed[0]!.key).toBe(options[1]!.key)
  })
})

const stored: AdminQuestion = {
  id: 7,
  text: { en: 'Capital of Nepal?', ne: 'नेपालको राजधानी?' },
  hint: null,
  topic: 'Geography',
  image: { svg: '<svg xmlns="http://www.w3.org/2000/svg"/>', caption: { en: 'Map', ne: '' } },
  options: [
    { id: 1, text: { en: 'Pokhara', ne: '' }, is_correct: false, image: null },
    { id: 2, text: { en: 'Kathmandu', ne: 'काठमाडौं' }, is_correct: true, image: null },
  ],
}

describe('editing a stored question', () => {
  it('starts from its content with its correct option', () => {
    const draft = draftFromQuestion(stored)
    expect(draft.text).toEqual(stored.text)
    expect(draft.hint).toEqual({ en: '', ne: '' })
    expect(draft.image.caption).toEqual({ en: 'Map', ne: '' })
    expect(draft.options.map((option) => option.isCorrect)).toEqual([false, true])
  })
  it('repairs stored data with several or no correct options to exactly one', () => {
    const several = draftFromQuestion({
      ...stored,
      options: stored.options.map((option) => ({ ...option, is_correct: true })),
    })
    expect(several.options.map((option) => option.isCorrect)).toEqual([true, false])
    const none = draftFromQuestion({
      ...stored,
      options: stored.options.map((option) => ({ ...option, is_correct: false })),
    })
    expect(none.options.map((option) => option.isCorrect)).toEqual([true, false])
  })
})

describe('toQuestionPayload', () => {
  it('sends the API shape, without option ids, with null for a missing hint or image', () => {
    const payload = toQuestionPayload(draftFromQuestion(stored))
    expect(payload).toEqual({
      text: stored.text,
      hint: null,
      topic: 'Geography',
      image: stored.image,
      options: [
        { text: { en: 'Pokhara', ne: '' }, is_correct: false, image: null },
        { text: { en: 'Kathmandu', ne: 'काठमाडौं' }, is_correct: true, image: null },
      ],
    })
  })
  it('sends a hint given in one language only, and drops an image with blank SVG', () => {
    const draft = newQuestionDraft()
    draft.hint = { en: '', ne: 'सङ्केत' }
    draft.image = { svg: '   ', caption: { en: 'ignored', ne: '' } }
    const payload = toQuestionPayload(draft)
    expect(payload.hint).toEqual({ en: '', ne: 'सङ्केत' })
    expect(payload.image).toBeNull()
  })
})
