import type { QuestionKey } from '@quiz/contracts'
import { toIso } from '../lib/clock'
import type { AnswerKey } from '../questions/answer-keys'

// The editor saves what these show as a new revision, so they show the key the revision scores on; otherwise an edit
// would write the old key back (docs/decisions/036).

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
