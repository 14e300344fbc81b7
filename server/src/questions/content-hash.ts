import { createHash } from 'node:crypto'
import type { NumericKey } from '@quiz/contracts/rules/numbers'

export interface HashedContent {
  text: { en: string; ne: string }
  options: readonly { text: { en: string; ne: string }; is_correct: boolean }[]
  type?: 'choice' | 'multiple' | 'numeric' | 'written'
  answer?: NumericKey | null
}

export const normaliseForHash = (text: string) => text.normalize('NFC').replace(/\s+/gu, ' ').trim()

// Options sorted: a shuffled copy is the same question. Hints, topics and tags are not part of it.
export function contentHash(content: HashedContent): string {
  const options = content.options
    .map((option) => [normaliseForHash(option.text.en), normaliseForHash(option.text.ne), option.is_correct ? 1 : 0])
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))
  const texts = [normaliseForHash(content.text.en), normaliseForHash(content.text.ne)]
  // A written question is its text alone; choice questions keep the hashes they were stored with; a multiple or
  // numeric question names its type (and a numeric one its key), so it is never a duplicate of a choice question.
  const key = JSON.stringify(
    content.type === 'written'
      ? ['written', ...texts]
      : content.type === 'multiple'
        ? ['multiple', ...texts, options]
        : content.type === 'numeric'
          ? ['numeric', ...texts, content.answer ?? null]
          : [...texts, options],
  )
  return createHash('sha256').update(key).digest('hex')
}
