import type { AdminImage, AdminQuestion, Bilingual, QuestionPayload } from './quizzes.api'

// The question editor's values and its rules: 2 to 10 options (WEB.md), always exactly one correct
// (SPEC.md section 4), four options with the first correct for a new question. The values have the request's
// shape (`options.1.text.en`), so the server's field paths name the form's fields as they are.

export const MIN_OPTIONS = 2
export const MAX_OPTIONS = 10
export const NEW_QUESTION_OPTIONS = 4

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

export interface QuestionDraft {
  text: Bilingual
  hint: Bilingual
  topic: string
  image: ImageDraft
  options: OptionDraft[]
}

const emptyText = (): Bilingual => ({ en: '', ne: '' })
const emptyImage = (): ImageDraft => ({ svg: '', picture: null, caption: emptyText() })
const imageDraft = (image: AdminImage | null | undefined): ImageDraft =>
  image
    ? {
        svg: image.svg ?? '',
        picture: image.picture && { ...image.picture, stored: true },
        caption: { en: image.caption?.en ?? '', ne: image.caption?.ne ?? '' },
      }
    : emptyImage()

/** Whether an image draft holds anything to send (an SVG drawing or a picture). */
export const hasImage = (image: ImageDraft) => image.svg.trim() !== '' || image.picture !== null

export function emptyOption(isCorrect = false): OptionDraft {
  return { text: emptyText(), is_correct: isCorrect, image: emptyImage() }
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
  const options = question.options.map((option) => ({
    text: { en: option.text.en, ne: option.text.ne ?? '' },
    is_correct: option.is_correct,
    image: imageDraft(option.image),
  }))
  // Stored data with several or no correct options opens with exactly one: the first marked, or the first.
  const correct = correctIndex(options)
  return {
    text: { en: question.text.en, ne: question.text.ne ?? '' },
    hint: { en: question.hint?.en ?? '', ne: question.hint?.ne ?? '' },
    topic: question.topic ?? '',
    image: imageDraft(question.image),
    options: options.map((option, index) => ({ ...option, is_correct: index === correct })),
  }
}

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
function imagePayload(image: ImageDraft): QuestionPayload['image'] {
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
  return {
    text: { en: draft.text.en, ne: draft.text.ne },
    hint: hasHint ? { en: draft.hint.en, ne: draft.hint.ne } : null,
    topic: draft.topic,
    image: imagePayload(draft.image),
    options: draft.options.map((option) => ({
      text: { en: option.text.en, ne: option.text.ne },
      is_correct: option.is_correct,
      image: imagePayload(option.image),
    })),
  }
}
