import { numericKeyOf, type RevisionWithOptions } from './question-revisions.repository'
import type { ScoredQuestion } from './scoring'

/** A question as its type's marker reads it (the paper's PaperQuestion without the learner's payload). */
export function toScoredQuestion(revision: RevisionWithOptions): ScoredQuestion {
  const numeric = revision.type === 'numeric' ? numericKeyOf(revision) : null
  return {
    questionId: revision.question_id,
    ...(revision.type !== 'choice' && { type: revision.type }),
    correctOptionId:
      revision.type === 'choice' ? (revision.options.find((option) => option.is_correct === 1)?.id ?? null) : null,
    ...(revision.type === 'multiple' && {
      correctOptionIds: new Set(revision.options.filter((option) => option.is_correct === 1).map(({ id }) => id)),
    }),
    ...(numeric && { numeric: { answer: numeric, decimals: revision.decimals } }),
  }
}
