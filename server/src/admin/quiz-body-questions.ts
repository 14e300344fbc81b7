import { adminLimits, bankLimits } from '@quiz/contracts'

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The question objects written inline in a create-from-JSON body, with the path prefix validation reports their
 * fields at: `questions.3.` for a quiz of questions, `sections.1.items.2.` for an inline item of a section (an item
 * with `question_id` or `draw` names a bank question and holds no text). Read from the raw body, before validation,
 * for the hooks that sanitise SVGs, re-encode pictures and check maths (image-fields.ts): an inline question that
 * skipped them would store an unsanitised SVG. Oversized lists are left to validation.
 */
export function quizBodyQuestions(body: unknown): [question: unknown, prefix: string][] {
  if (!isRecord(body)) return []
  const found: [unknown, string][] = []
  if (Array.isArray(body.questions) && body.questions.length <= adminLimits.maxQuestions)
    body.questions.forEach((question, index) => found.push([question, `questions.${index}.`]))
  if (Array.isArray(body.sections) && body.sections.length <= adminLimits.maxQuestions)
    body.sections.forEach((section, s) => {
      if (!isRecord(section) || !Array.isArray(section.items) || section.items.length > bankLimits.itemsPerSection)
        return
      section.items.forEach((item, i) => {
        if (isRecord(item) && !('question_id' in item) && !('draw' in item))
          found.push([item, `sections.${s}.items.${i}.`])
      })
    })
  return found
}
