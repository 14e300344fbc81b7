import type { Difficulty } from '@quiz/contracts'
import type { BankQuestion } from './bank.api'

// The question form's bank fields (API.md "Question bank"): tags typed in one line separated by commas or
// semicolons (WEB.md "Details of the third wave's screens"), a difficulty or none, a source or none; and in the bank
// alone "Needs sight" (API.md "Blind learners": the quiz's question routes do not take it).

export interface BankFieldsDraft {
  tags: string
  difficulty: Difficulty | ''
  source: string
  needs_sight: boolean
}

export interface BankFieldsPayload {
  tags: string[]
  difficulty: Difficulty | null
  source: string | null
  needs_sight?: boolean
}

/** "Nepal; history, nepal ,," -> ["Nepal", "history"]: trimmed, empties dropped, a repeat in any case dropped. */
export function parseTags(text: string): string[] {
  const seen = new Set<string>()
  const tags: string[] = []
  for (const part of text.split(/[,;]/)) {
    const tag = part.trim()
    const key = tag.toLocaleLowerCase()
    if (tag && !seen.has(key)) {
      seen.add(key)
      tags.push(tag)
    }
  }
  return tags
}

export function bankFieldsDraft(question: BankQuestion | null | undefined): BankFieldsDraft {
  return {
    tags: (question?.tags ?? []).join(', '),
    difficulty: question?.difficulty ?? '',
    source: question?.source ?? '',
    needs_sight: question?.needs_sight ?? false,
  }
}

/** The bank fields to send; `needs_sight` only from the bank's own form (`inBank`). */
export function toBankFields(draft: BankFieldsDraft, inBank = false): BankFieldsPayload {
  const source = draft.source.trim()
  return {
    tags: parseTags(draft.tags),
    difficulty: draft.difficulty || null,
    source: source || null,
    ...(inBank && { needs_sight: draft.needs_sight }),
  }
}
