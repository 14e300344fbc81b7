import type { RankChange } from '@quiz/contracts'

/** Rank as the report card counts it: 1 + the learners whose first attempt scored strictly more. */
function rankIn(sortedDescending: readonly number[], score: number) {
  let low = 0
  let high = sortedDescending.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (sortedDescending[middle]! > score) low = middle + 1
    else high = middle
  }
  return 1 + low
}

export function rankChanges(
  firstAttempts: readonly { id: number; user_id: number; quiz_id: number; score_hundredths: number | null }[],
  newScoreOf: ReadonlyMap<number, number>,
): (Omit<RankChange, 'username'> & { user_id: number })[] {
  const byQuiz = new Map<number, (typeof firstAttempts)[number][]>()
  for (const attempt of firstAttempts) {
    const list = byQuiz.get(attempt.quiz_id)
    if (list) list.push(attempt)
    else byQuiz.set(attempt.quiz_id, [attempt])
  }
  const moves: (Omit<RankChange, 'username'> & { user_id: number })[] = []
  for (const [quizId, attempts] of byQuiz) {
    const before = attempts.map((attempt) => attempt.score_hundredths ?? 0)
    const after = attempts.map((attempt, index) => newScoreOf.get(attempt.id) ?? before[index]!)
    const sortedBefore = [...before].sort((a, b) => b - a)
    const sortedAfter = [...after].sort((a, b) => b - a)
    attempts.forEach((attempt, index) => {
      const oldRank = rankIn(sortedBefore, before[index]!)
      const newRank = rankIn(sortedAfter, after[index]!)
      if (oldRank !== newRank)
        moves.push({ user_id: attempt.user_id, quiz_id: quizId, old_rank: oldRank, new_rank: newRank })
    })
  }
  return moves.sort(
    (a, b) => Math.abs(b.new_rank - b.old_rank) - Math.abs(a.new_rank - a.old_rank) || a.new_rank - b.new_rank,
  )
}
