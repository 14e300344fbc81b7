import type { Difficulty } from '@quiz/contracts'
import type { BankQuestion } from './bank.api'

// The question form's bank fields (API.md "Question bank"): tags typed in one line separated by commas or
// semicolons (WEB.md "Details of the third wave's screens"), a difficulty or none, a source or none.

export interface BankFieldsDraft {
  tags: string
  difficulty: Difficulty | ''
  source: string
}

export interface BankFieldsPayload {
  tags: string[]
  difficulty: Difficulty | null
  source: string | null
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
  }
}

export function toBankFields(draft: BankFieldsDraft): BankFieldsPayload {
  const source = draft.source.trim()
  return { tags: parseTags(draft.tags), difficulty: draft.difficulty || null, source: source || null }
}
