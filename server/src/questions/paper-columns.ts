/**
 * The two JSON columns that name an attempt's paper, decoded in one place: attempts' `attemptColumns` and the paper
 * cache (question-papers.ts, which keys on the text itself) both read them through these.
 */
export const paperColumns = {
  /** The paper's question revisions, in the order the learner sees them. */
  revisionIds: (json: string): number[] => JSON.parse(json) as number[],
  /** Each question's option ids in the order the attempt shows them; null for the authored order. */
  optionOrder: (json: string | null | undefined): number[][] | null => (json ? (JSON.parse(json) as number[][]) : null),
}
