// An attempt's sections as it started (attempts.sections, JSON): consecutive runs of its questions, each with its
// marks in hundredths of a point. Everything that scores an attempt reads them through here, so a score is always
// an integer sum of integers and exact to 2 decimals (docs/decisions/029-question-bank-and-papers.md).

export interface AttemptSection {
  title_en: string
  title_ne: string
  /** Hundredths added for a right answer. */
  marks_correct: number
  /** Hundredths taken off for a wrong answer (a positive number). */
  marks_wrong: number
  time_limit_minutes: number | null
  /** How many of the attempt's questions, after those of the sections before, are this section's. */
  count: number
  /** Timed sections: the limit in ms as this attempt runs it, stretched by the learner's extra time. */
  limit_ms?: number
}

/** SPEC.md's marking, which every quiz had before papers had sections: +1 / -0.2. */
export const DEFAULT_MARKS_CORRECT = 100
export const DEFAULT_MARKS_WRONG = 20

/**
 * Sections parsed, by their stored JSON. Every fetch and autosave reads its attempt's sections, and a paper's
 * learners store the same JSON (or a few: extra time stretches limits): a storm parses each once. Shared, so
 * read-only; cleared whole when full, which a server meets only after a thousand different papers or stretches.
 */
const parsedSections = new Map<string, readonly AttemptSection[]>()
const MAX_PARSED_SECTIONS = 1_000

/** The attempt's sections; an attempt made before sections (null) is one untimed section of +1 / -0.2. */
export function attemptSections(json: string | null | undefined, questionCount: number): readonly AttemptSection[] {
  if (json) {
    let sections = parsedSections.get(json)
    if (!sections) {
      if (parsedSections.size >= MAX_PARSED_SECTIONS) parsedSections.clear()
      // Frozen: a caller that changed a shared section would change every other learner's.
      sections = Object.freeze((JSON.parse(json) as AttemptSection[]).map((section) => Object.freeze(section)))
      parsedSections.set(json, sections)
    }
    return sections
  }
  return [
    {
      title_en: '',
      title_ne: '',
      marks_correct: DEFAULT_MARKS_CORRECT,
      marks_wrong: DEFAULT_MARKS_WRONG,
      time_limit_minutes: null,
      count: questionCount,
    },
  ]
}

export function sectionIndexes(sections: readonly AttemptSection[]): number[] {
  return sections.flatMap((section, index) => Array.from({ length: section.count }, () => index))
}

/** Each question's marks `{correct, wrong}` in hundredths, by its place in the attempt's paper. */
export function marksByPlace(sections: readonly AttemptSection[]): { correct: number; wrong: number }[] {
  return sections.flatMap((section) =>
    Array.from({ length: section.count }, () => ({ correct: section.marks_correct, wrong: section.marks_wrong })),
  )
}

/** The most a paper can score: the sum of its questions' marks for a right answer. */
export const maxScoreHundredths = (sections: readonly AttemptSection[]) =>
  sections.reduce((sum, section) => sum + section.count * section.marks_correct, 0)
