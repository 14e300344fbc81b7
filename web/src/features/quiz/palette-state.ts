/**
 * The five states of NTA's question palette (WEB.md "Exam screen"). Exactly one per question, so the submit
 * summary's counts add up to the number of questions.
 */
export const PALETTE_STATES = ['not_visited', 'not_answered', 'answered', 'marked', 'answered_marked'] as const
export type PaletteState = (typeof PALETTE_STATES)[number]

export interface QuestionProgress {
  answered: boolean
  marked: boolean
  visited: boolean
}

/**
 * An answer or a mark implies the question was seen, whatever the visit record says (attempts saved before
 * visits were recorded have answers but no visits).
 */
export function paletteState({ answered, marked, visited }: QuestionProgress): PaletteState {
  if (answered && marked) return 'answered_marked'
  if (answered) return 'answered'
  if (marked) return 'marked'
  return visited ? 'not_answered' : 'not_visited'
}

export interface ProgressMaps {
  answers: Record<string, number | number[] | string | null | undefined>
  /** Written questions with text or a page (WEB.md "Written answers"): answered like a chosen option. */
  written?: Record<string, true | undefined>
  marked: Record<string, boolean | undefined>
  visited: Record<string, true | undefined>
}

/** Whether a saved answer counts: an option, at least one ticked option, or a typed number (API.md: `[]` is none). */
export const isAnswered = (answer: number | number[] | string | null | undefined) =>
  answer != null && answer !== '' && !(Array.isArray(answer) && answer.length === 0)

/** The state of one question from the queue's maps. */
export function stateOf(questionId: number, { answers, marked, visited, written }: ProgressMaps): PaletteState {
  const key = String(questionId)
  return paletteState({
    answered: isAnswered(answers[key]) || written?.[key] === true,
    marked: marked[key] === true,
    visited: visited[key] === true,
  })
}

/** How many questions are in each state: the submit confirmation's summary. */
export function countStates(questionIds: readonly number[], maps: ProgressMaps): Record<PaletteState, number> {
  const counts: Record<PaletteState, number> = {
    not_visited: 0,
    not_answered: 0,
    answered: 0,
    marked: 0,
    answered_marked: 0,
  }
  for (const id of questionIds) counts[stateOf(id, maps)] += 1
  return counts
}
