import type { QuestionKey } from '@quiz/contracts'
import { toIso } from '../lib/clock'
import type { AnswerKey } from '../questions/answer-keys'

// The key the revision scores on, so an edit saved from the editor does not write the old key back (decision 036).

export function toQuestionKey(key: AnswerKey | undefined): QuestionKey {
  if (!key) return null
  return {
    version: key.version,
    action: key.action,
    correct_option_ids: [...key.correct].sort((a, b) => a - b),
    drop_policy: key.drop,
    note: key.note,
    decided_at: toIso(key.decidedAt),
  }
}
