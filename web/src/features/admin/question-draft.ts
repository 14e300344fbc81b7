import type { AdminImage, AdminQuestion, Bilingual, QuestionPayload } from './admin.api'

// The question editor's state and its rules: 2 to 10 options (WEB.md), always exactly one correct
// (SPEC.md section 4), four options with the first correct for a new question.

export const MIN_OPTIONS = 2
export const MAX_OPTIONS = 10
export const NEW_QUESTION_OPTIONS = 4

export interface ImageDraft {
  svg: string
  caption: Bilingual
}

export interface OptionDraft {
  /** React key only: options are sent without ids (each save writes a new revision of the question). */
  key: string
  text: Bilingual
  isCorrect: boolean
  image: ImageDraft
}

export interface QuestionDraft {
  text: Bilingual
  hint: Bilingual
  topic: string
  image: ImageDraft
  options: OptionDraft[]
}

let nextKey = 0
const newKey = () => `option-${(nextKey += 1)}`

const emptyText = (): Bilingual => ({ en: '', ne: '' })
const emptyImage = (): ImageDraft => ({ svg: '', caption: emptyText() })
const imageDraft = (image: AdminImage | null | undefined): ImageDraft =>
  image ? { svg: image.svg, caption: { en: image.caption?.en ?? '', ne: image.caption?.ne ?? '' } } : emptyImage()

export function emptyOption(isCorrect = false): OptionDraft {
  return { key: newKey(), text: emptyText(), isCorrect, image: emptyImage() }
}

export function newQuestionDraft(): QuestionDraft {
  return {
    text: emptyText(),
    hint: emptyText(),
    topic: '',
    image: emptyImage(),
    options: Array.from({ length: NEW_QUESTION_OPTIONS }, (_, index) => emptyOption(index === 0)),
  }
}

export function draftFromQuestion(question: AdminQuestion): QuestionDraft {
  const draft: QuestionDraft = {
    text: { en: question.text.en, ne: question.text.ne ?? '' },
    hint: { en: question.hint?.en ?? '', ne: question.hint?.ne ?? '' },
    topic: question.topic ?? '',
    image: imageDraft(question.image),
    options: question.options.map((option) => ({
      key: newKey(),
      text: { en: option.text.en, ne: option.text.ne ?? '' },
      isCorrect: option.is_correct,
      image: imageDraft(option.image),
    })),
  }
  return { ...draft, options: withOneCorrect(draft.options) }
}

/** Keeps exactly one option correct: the first one marked, or the first option when none is. */
function withOneCorrect(options: OptionDraft[]): OptionDraft[] {
  if (options.length === 0) return options
  const correct = Math.max(
    0,
    options.findIndex((option) => option.isCorrect),
  )
  return options.map((option, index) =>
    option.isCorrect === (index === correct) ? option : { ...option, isCorrect: index === correct },
  )
}

/** Selecting one option as correct makes every other one incorrect. */
export function markCorrect(options: OptionDraft[], key: string): OptionDraft[] {
  if (!options.some((option) => option.key === key)) return options
  return options.map((option) => ({ ...option, isCorrect: option.key === key }))
}

export const canAddOption = (options: OptionDraft[]) => options.length < MAX_OPTIONS
export const canRemoveOption = (options: OptionDraft[]) => options.length > MIN_OPTIONS

export function addOption(options: OptionDraft[]): OptionDraft[] {
  return canAddOption(options) ? [...options, emptyOption(false)] : options
}

/** Removes an option; when it was the correct one, the first remaining option becomes correct. */
export function removeOption(options: OptionDraft[], key: string): OptionDraft[] {
  if (!canRemoveOption(options)) return options
  return withOneCorrect(options.filter((option) => option.key !== key))
}

export function updateOption(
  options: OptionDraft[],
  key: string,
  change: (option: OptionDraft) => OptionDraft,
): OptionDraft[] {
  return options.map((option) => (option.key === key ? change(option) : option))
}

/** An image is sent only when it has SVG; a blank one is "no image" (null), as API.md's absent values are. */
function imagePayload(image: ImageDraft): AdminImage | null {
  if (!image.svg.trim()) return null
  return { svg: image.svg, caption: { en: image.caption.en, ne: image.caption.ne } }
}

export function toQuestionPayload(draft: QuestionDraft): QuestionPayload {
  const hasHint = draft.hint.en.trim() !== '' || draft.hint.ne.trim() !== ''
  return {
    text: { en: draft.text.en, ne: draft.text.ne },
    hint: hasHint ? { en: draft.hint.en, ne: draft.hint.ne } : null,
    topic: draft.topic,
    image: imagePayload(draft.image),
    options: draft.options.map((option) => ({
      text: { en: option.text.en, ne: option.text.ne },
      is_correct: option.isCorrect,
      image: imagePayload(option.image),
    })),
  }
}
