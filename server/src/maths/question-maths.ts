import { adminLimits, writtenLimits } from '@quiz/contracts'
import { checkMathsInSlices } from './check-maths'

// From the raw body, beside SVG sanitising before validation, so every problem of a body is reported at once.

type Texts = [path: string, text: unknown][]

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function bilingual(owner: unknown, key: string, prefix: string, maxLength: number): Texts {
  if (!isRecord(owner) || !isRecord(owner[key])) return []
  const text = owner[key]
  return (['en', 'ne'] as const)
    .filter((language) => typeof text[language] !== 'string' || (text[language] as string).length <= maxLength)
    .map((language) => [`${prefix}${key}.${language}`, text[language]])
}

export function questionTexts(question: unknown, prefix = ''): Texts {
  if (!isRecord(question)) return []
  const texts = [
    ...bilingual(question, 'text', prefix, adminLimits.questionTextLength),
    ...bilingual(question, 'hint', prefix, adminLimits.hintLength),
    ...bilingual(question.image, 'caption', `${prefix}image.`, adminLimits.captionLength),
    ...bilingual(question, 'model_answer', prefix, writtenLimits.modelAnswerLength),
  ]
  if (Array.isArray(question.options) && question.options.length <= adminLimits.maxOptions) {
    question.options.forEach((option, index) => {
      const at = `${prefix}options.${index}.`
      texts.push(...bilingual(option, 'text', at, adminLimits.optionTextLength))
      if (isRecord(option)) texts.push(...bilingual(option.image, 'caption', `${at}image.`, adminLimits.captionLength))
    })
  }
  return texts
}

export const questionMathsErrors = (body: unknown) => checkMathsInSlices(questionTexts(body))
