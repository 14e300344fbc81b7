// Every scorer reads sections here, so a score is an integer sum of integers (docs/decisions/029).

export interface AttemptSection {
  title_en: string
  title_ne: string
  marks_correct: number
  marks_wrong: number
  time_limit_minutes: number | null
  count: number
  limit_ms?: number
  /** Multiple questions' marking (API.md "Question types"); absent: all_or_nothing, 1 mark a right option. */
  multiple_scheme?: 'all_or_nothing' | 'partial'
  partial_marks?: number
  /** False: a wrong numeric answer loses nothing; absent: true. */
  numeric_negative?: boolean
}

/** SPEC.md's marking, which every quiz had before papers had sections: +1 / -0.2. */
export const DEFAULT_MARKS_CORRECT = 100
export const DEFAULT_MARKS_WRONG = 20

// A storm parses each paper's sections once; shared, so read-only, and cleared whole when full.
const parsedSections = new Map<string, readonly AttemptSection[]>()
const MAX_PARSED_SECTIONS = 1_000

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

export function marksByPlace(sections: readonly AttemptSection[]): { correct: number; wrong: number }[] {
  return sections.flatMap((section) =>
    Array.from({ length: section.count }, () => ({ correct: section.marks_correct, wrong: section.marks_wrong })),
  )
}

export const maxScoreHundredths = (sections: readonly AttemptSection[]) =>
  sections.reduce((sum, section) => sum + section.count * section.marks_correct, 0)
