import { adminLimits, bankLimits, passageLimits } from '@quiz/contracts'

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

// For the image and maths hooks, before validation: an inline question that skipped them would store raw SVG.
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
        if (!isRecord(item) || 'question_id' in item || 'draw' in item || 'passage_id' in item) return
        const at = `sections.${s}.items.${i}.`
        if (!('passage' in item)) return found.push([item, at])
        // A new passage (its picture and formulas as a question's) and its questions.
        found.push([item.passage, `${at}passage.`])
        if (Array.isArray(item.items) && item.items.length <= passageLimits.questions)
          item.items.forEach((question, j) => found.push([question, `${at}items.${j}.`]))
      })
    })
  return found
}
