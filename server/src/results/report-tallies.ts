import type { ReportAnalysis, ReportCard } from '@quiz/contracts'
import type { KeyQuiz } from '../attempts/withheld-keys.service'
import type { TypedOutcome } from '../questions/type-marks'
import { toScore } from '../questions/scoring'
import { DEFAULT_MARKS_CORRECT, DEFAULT_MARKS_WRONG, sectionIndexes, type AttemptSection } from '../questions/sections'
import type { WrittenPartRow } from './results.repository'

export const quizOf = (row: Omit<KeyQuiz, 'id' | 'status'> & { quiz_id: number; quiz_status: string }): KeyQuiz => ({
  ...row,
  id: row.quiz_id,
  status: row.quiz_status,
})

type Outcome = TypedOutcome
export interface TopicOutcome {
  topic: string
  marks: { correct: number; wrong: number }
  outcome: Outcome
  /** Signed hundredths gained (questions/type-marks.ts): a partial multiple answer's share is its own. */
  gained: number
}

/** API.md "Question types": `correct` is full marks, `incorrect` any other answer, partial ones included. */
const counted = (outcome: Outcome) => (outcome === 'partial' ? 'incorrect' : outcome)

export const DEFAULT_MARKS = { correct: DEFAULT_MARKS_CORRECT, wrong: DEFAULT_MARKS_WRONG }

export function writtenPartOf(part: WrittenPartRow | undefined): Pick<ReportCard, 'marking' | 'written'> {
  if (!part) return { marking: 'none', written: null }
  return {
    marking: part.released === part.total ? 'released' : 'pending',
    written: { ...part, marks: toScore(part.marks), max_marks: toScore(part.max_marks) },
  }
}

export function sectionTallies(
  sections: readonly AttemptSection[],
  outcomes: readonly TopicOutcome[],
): ReportCard['sections'] {
  const indexOf = sectionIndexes(sections)
  return sections.map((section, index) => {
    const mine = outcomes.filter((_, place) => indexOf[place] === index)
    const count = (outcome: Outcome) => mine.filter((item) => counted(item.outcome) === outcome).length
    return {
      title: { en: section.title_en, ne: section.title_ne },
      score: toScore(scoreOf(mine)),
      max_score: toScore(section.count * section.marks_correct - excludedHundredths(mine)),
      correct: count('correct'),
      incorrect: count('incorrect'),
      unanswered: count('unanswered'),
    }
  })
}

const scoreOf = (outcomes: readonly TopicOutcome[]) => outcomes.reduce((sum, item) => sum + item.gained, 0)

/** The marks lost to wrong answers, as a positive number of hundredths. */
export const negativeHundredths = (outcomes: readonly TopicOutcome[]) =>
  outcomes.reduce((sum, item) => sum + (item.gained < 0 ? -item.gained : 0), 0)

export const excludedHundredths = (outcomes: readonly TopicOutcome[]) =>
  outcomes.reduce((sum, item) => sum + (item.outcome === 'excluded' ? item.marks.correct : 0), 0)

/** Tallies per topic in order of first appearance; questions without a topic (stored as '') go under null. */
export function topicTally(outcomes: readonly TopicOutcome[]): ReportAnalysis['topics'] {
  const byTopic = new Map<string, { correct: number; incorrect: number; unanswered: number; hundredths: number }>()
  for (const item of outcomes) {
    if (item.outcome === 'excluded') continue
    let tally = byTopic.get(item.topic)
    if (!tally) byTopic.set(item.topic, (tally = { correct: 0, incorrect: 0, unanswered: 0, hundredths: 0 }))
    tally[counted(item.outcome) as 'correct' | 'incorrect' | 'unanswered']++
    tally.hundredths += scoreOf([item])
  }
  return [...byTopic].map(([topic, { hundredths, ...tally }]) => ({
    topic: topic === '' ? null : topic,
    ...tally,
    score: toScore(hundredths),
  }))
}
