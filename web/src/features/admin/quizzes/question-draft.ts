import {
  acceptsNumber,
  isKeyNumber,
  keyNumberText,
  MAX_DECIMALS,
  readNumber,
  type NumericKey,
} from '@quiz/contracts/rules/numbers'
import type { AdminImage, AdminQuestion, Bilingual, QuestionPayload, QuestionType } from './quizzes.api'

// The question editor's values and its rules: 2 to 10 options (WEB.md), always exactly one correct
// (SPEC.md section 4), four options with the first correct for a new question. A multiple question keeps every
// option ticked right (2 to 8, at least one: the server says so); a numeric one has no options but a value with a
// tolerance or a range, and the decimals a learner may type (API.md "Question types"). The values have the request's
// shape (`options.1.text.en`), so the server's field paths name the form's fields as they are.

export const MIN_OPTIONS = 2
export const MAX_OPTIONS = 10
export const NEW_QUESTION_OPTIONS = 4
/** A multiple question has 2 to 8 options (API.md "Question types"). */
export const MAX_MULTIPLE_OPTIONS = 8

/**
 * A picture as edited: one the server stores (`stored`, sent back by its url, never re-uploaded) or one just chosen
 * (its data: URL, sent as it is; its size is the server's to say).
 */
export interface PictureDraft {
  url: string
  width: number | null
  height: number | null
  stored: boolean
}

/** An image as edited: blank SVG and no picture is "no image", and the captions are kept meanwhile. */
export interface ImageDraft {
  svg: string
  picture: PictureDraft | null
  caption: Bilingual
}

export interface OptionDraft {
  text: Bilingual
  is_correct: boolean
  image: ImageDraft
}

/** A numeric question's key as typed: a value with a tolerance, or a range (every number as typed, sent as read). */
export interface NumericDraft {
  mode: 'value' | 'range'
  value: string
  tolerance: string
  min: string
  max: string
  /** Blank: any number of decimals (null). */
  decimals: string
}

export interface QuestionDraft {
  /**
   * One right option (choice), several (multiple), a number (numeric) or written (marks, a word limit, a model
   * answer and a rubric).
   */
  type: QuestionType
  text: Bilingual
  hint: Bilingual
  topic: string
  image: ImageDraft
  options: OptionDraft[]
  /** A written question's marks and word limit as typed (the server says what is wrong with them). */
  marks: string
  word_limit: string
  model_answer: Bilingual
  numeric: NumericDraft
}

/** The written fields a question read from the server may carry (the bank's payloads do). */
type WrittenFieldsRead = Partial<{
  type: AdminQuestion['type']
  answer: AdminQuestion['answer']
  decimals: number | null
  marks: number | null
  word_limit: number | null
  model_answer: Bilingual | null
}>

const emptyText = (): Bilingual => ({ en: '', ne: '' })
export const emptyImage = (): ImageDraft => ({ svg: '', picture: null, caption: emptyText() })
export const imageDraft = (image: AdminImage | null | undefined): ImageDraft =>
  image
    ? {
        svg: image.svg ?? '',
        picture: image.picture && { ...image.picture, stored: true },
        caption: { en: image.caption?.en ?? '', ne: image.caption?.ne ?? '' },
      }
    : emptyImage()

/** Whether an image draft holds anything to send (an SVG drawing or a picture). */
export const hasImage = (image: ImageDraft) => image.svg.trim() !== '' || image.picture !== null

/**
 * The pictures a screen reader cannot read, as the server's `no_description` finds them (API.md "Blind learners"):
 * 'question' for the question's own, an option's index for an option's; an image with no caption in either language.
 */
export function undescribedPictures(draft: Pick<QuestionDraft, 'type' | 'image' | 'options'>): ('question' | number)[] {
  const bare = (image: ImageDraft) => hasImage(image) && !image.caption.en.trim() && !image.caption.ne.trim()
  const options = draft.type === 'written' || draft.type === 'numeric' ? [] : draft.options
  return [
    ...(bare(draft.image) ? (['question'] as const) : []),
    ...options.flatMap((option, index) => (bare(option.image) ? [index] : [])),
  ]
}

export function emptyOption(isCorrect = false): OptionDraft {
  return { text: emptyText(), is_correct: isCorrect, image: emptyImage() }
}

export function newQuestionDraft(): QuestionDraft {
  return {
    type: 'choice',
    text: emptyText(),
    hint: emptyText(),
    topic: '',
    image: emptyImage(),
    options: Array.from({ length: NEW_QUESTION_OPTIONS }, (_, index) => emptyOption(index === 0)),
    marks: '',
    word_limit: '',
    model_answer: emptyText(),
    numeric: emptyNumeric(),
  }
}

const emptyNumeric = (): NumericDraft => ({ mode: 'value', value: '', tolerance: '0', min: '', max: '', decimals: '' })

function numericDraft(question: WrittenFieldsRead): NumericDraft {
  const answer = question.answer
  const decimals = question.decimals == null ? '' : String(question.decimals)
  if (!answer) return { ...emptyNumeric(), decimals }
  if ('min' in answer)
    return { ...emptyNumeric(), mode: 'range', min: String(answer.min), max: String(answer.max), decimals }
  return { ...emptyNumeric(), value: String(answer.value), tolerance: String(answer.tolerance), decimals }
}

export function draftFromQuestion(question: AdminQuestion & WrittenFieldsRead): QuestionDraft {
  const options = question.options.map((option) => ({
    text: { en: option.text.en, ne: option.text.ne ?? '' },
    is_correct: option.is_correct,
    image: imageDraft(option.image),
  }))
  // A choice question stored with several or no correct options opens with exactly one: the first marked, or the
  // first; a multiple question keeps its right set.
  const correct = correctIndex(options)
  const type: QuestionType = question.type ?? 'choice'
  const optionless = type === 'written' || type === 'numeric'
  return {
    type,
    text: { en: question.text.en, ne: question.text.ne ?? '' },
    hint: { en: question.hint?.en ?? '', ne: question.hint?.ne ?? '' },
    topic: question.topic ?? '',
    image: imageDraft(question.image),
    // A written or numeric question opens with a choice question's four empty options, for a change of type.
    options: optionless
      ? newQuestionDraft().options
      : type === 'multiple'
        ? options
        : options.map((option, index) => ({ ...option, is_correct: index === correct })),
    marks: question.marks == null ? '' : String(question.marks),
    word_limit: question.word_limit == null ? '' : String(question.word_limit),
    model_answer: { en: question.model_answer?.en ?? '', ne: question.model_answer?.ne ?? '' },
    numeric: numericDraft(question),
  }
}

/** A number as typed: blank is none (null), anything else goes as the number it reads as, for the server to judge. */
export const typedNumber = (value: string): number | null => (value.trim() === '' ? null : Number(value))

/** The option that is (or becomes) the correct one: the first one marked, or the first option when none is. */
export const correctIndex = (options: Pick<OptionDraft, 'is_correct'>[]) =>
  Math.max(
    0,
    options.findIndex((option) => option.is_correct),
  )

export const canAddOption = (count: number) => count < MAX_OPTIONS
export const canRemoveOption = (count: number) => count > MIN_OPTIONS

/**
 * An image is sent only when it has SVG or a picture; neither is "no image" (null), as API.md's absent values are.
 * Both are sent as they are, and the server's refusal shows at the picture.
 */
export function imagePayload(image: ImageDraft): QuestionPayload['image'] {
  if (!hasImage(image)) return null
  const { picture } = image
  return {
    ...(image.svg.trim() && { svg: image.svg }),
    ...(picture && { picture: picture.stored ? { url: picture.url } : picture.url }),
    caption: { en: image.caption.en, ne: image.caption.ne },
  }
}

export function toQuestionPayload(draft: QuestionDraft): QuestionPayload {
  const hasHint = draft.hint.en.trim() !== '' || draft.hint.ne.trim() !== ''
  const common = {
    text: { en: draft.text.en, ne: draft.text.ne },
    hint: hasHint ? { en: draft.hint.en, ne: draft.hint.ne } : null,
    topic: draft.topic,
    image: imagePayload(draft.image),
  }
  if (draft.type === 'written') {
    return {
      ...common,
      type: 'written',
      options: [],
      marks: typedNumber(draft.marks),
      word_limit: typedNumber(draft.word_limit),
      model_answer: { en: draft.model_answer.en, ne: draft.model_answer.ne },
    }
  }
  if (draft.type === 'numeric') {
    const { numeric } = draft
    return {
      ...common,
      type: 'numeric',
      options: [],
      answer:
        numeric.mode === 'range'
          ? { min: typedNumber(numeric.min), max: typedNumber(numeric.max) }
          : { value: typedNumber(numeric.value), tolerance: typedNumber(numeric.tolerance) ?? 0 },
      decimals: typedNumber(numeric.decimals),
    }
  }
  const options = draft.options.map((option) => ({
    text: { en: option.text.en, ne: option.text.ne },
    is_correct: option.is_correct,
    image: imagePayload(option.image),
  }))
  if (draft.type === 'multiple') return { ...common, type: 'multiple', options }
  // A choice question goes without `type`, as every question did before written ones (absent is choice).
  return { ...common, options }
}

/**
 * What a learner may type for a numeric question, by the contracts' own number rule (the exam screen's and the
 * server's): examples read with the question's decimals, each accepted or not by the key. Null when the key is
 * not yet a key (a blank or unreadable number).
 */
export interface NumericPreview {
  /** The accepted numbers' ends, in shortest form. */
  low: string
  high: string
  decimals: number | null
  examples: { typed: string; reads: string | null; accepted: boolean }[]
}

export function numericPreview(numeric: NumericDraft): NumericPreview | null {
  const decimals = numeric.decimals.trim() === '' ? null : Number(numeric.decimals)
  if (decimals !== null && !(Number.isInteger(decimals) && decimals >= 0 && decimals <= MAX_DECIMALS)) return null
  const number = (text: string) => {
    const read = readNumber(text)
    return read.ok ? Number(read.text) : null
  }
  let key: NumericKey
  let samples: number[]
  if (numeric.mode === 'range') {
    const min = number(numeric.min)
    const max = number(numeric.max)
    if (min === null || max === null || min > max || !isKeyNumber(min) || !isKeyNumber(max)) return null
    key = { min, max }
    samples = [min, max]
  } else {
    const value = number(numeric.value)
    const tolerance = numeric.tolerance.trim() === '' ? 0 : number(numeric.tolerance)
    if (value === null || tolerance === null || tolerance < 0 || !isKeyNumber(value) || !isKeyNumber(tolerance))
      return null
    key = { value, tolerance }
    samples = [value]
  }
  // The key's own numbers, typed with one decimal more than allowed, and in Devanagari digits.
  const typedForms = samples.flatMap((sample) => {
    const text = keyNumberText(sample)
    const extra = decimals === null ? null : Number(sample).toFixed(decimals + 1)
    return [text, toDevanagari(text), ...(extra ? [extra] : [])]
  })
  const [low, high] =
    'min' in key
      ? [keyNumberText(key.min), keyNumberText(key.max)]
      : [keyNumberText(key.value - key.tolerance), keyNumberText(key.value + key.tolerance)]
  const examples = [...new Set(typedForms)].map((typed) => {
    const read = readNumber(typed, decimals)
    return { typed, reads: read.ok ? read.text : null, accepted: read.ok && acceptsNumber(key, read.text) }
  })
  return { low, high, decimals, examples }
}

/** Latin digits as Devanagari ones (numbers in Nepali text are written so: WEB.md). */
export const toDevanagari = (text: string) =>
  text.replace(/[0-9]/gu, (digit) => String.fromCharCode(0x0966 + Number(digit)))
