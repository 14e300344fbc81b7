import type { ReportAnalysis } from '@quiz/contracts'
import { toScore } from './scoring'

// Beside scoring: a report's analysis and a live mock's leaderboard rank a score the same way.

export interface Standing {
  participants: number
  above: number
  below: number
  sumHundredths: number
  highestHundredths: number
}

export function toStanding(
  scoreHundredths: number,
  standing: Standing,
  outsider = false,
): Pick<ReportAnalysis, 'participants' | 'rank' | 'percentile' | 'average_score' | 'highest_score'> {
  // The learner's own counted attempt is among the participants; an outsider (practice, a paper beside one in progress) is not.
  const participants = outsider ? standing.participants : Math.max(1, standing.participants)
  const others = outsider ? participants : participants - 1
  return {
    participants,
    rank: 1 + standing.above,
    percentile: others === 0 ? 100 : Math.round((standing.below * 10_000) / others) / 100,
    average_score:
      standing.participants === 0
        ? toScore(scoreHundredths)
        : toScore(roundHalfAwayFromZero(standing.sumHundredths / standing.participants)),
    highest_score: standing.participants === 0 ? toScore(scoreHundredths) : toScore(standing.highestHundredths),
  }
}

const roundHalfAwayFromZero = (value: number) => Math.sign(value) * Math.round(Math.abs(value))
