/** The attempt's and its report's `adapted` (API.md "Blind learners", decision 114): null for a paper as authored. */
export const adaptedOf = (attempt: { left_out: number | null }) =>
  attempt.left_out ? { left_out: attempt.left_out } : null
