/**
 * A written answer on the learner's report card: the notifications of its marks (their release, a re-mark, a rubric
 * change) open the report at it, and the report scrolls to `#written-{questionId}` (web: results/written-answers.tsx).
 */
export const writtenResultLink = (attemptId: number, questionId: number) =>
  `/results/${attemptId}#written-${questionId}`
