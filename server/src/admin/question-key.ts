import type { QuestionKey } from '@quiz/contracts'
import { toIso } from '../lib/clock'
import type { AnswerKey } from '../questions/answer-keys'

// What the admin and bank question payloads say of a decided key (docs/decisions/036, "Editing a question whose
// key was decided"). The editor saves what these payloads show as a new revision, so they must show the key the
// revision scores on wherever one option is right; otherwise an edit would write the old key back.

/** The decided key as the payloads carry it, or null while the revision scores on its written key. */
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
