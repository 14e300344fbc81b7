import { createHash } from 'node:crypto'

export interface HashedContent {
  text: { en: string; ne: string }
  options: readonly { text: { en: string; ne: string }; is_correct: boolean }[]
}

/** NFC with every run of white space (no-break spaces too) one space and none at the ends. */
export const normaliseForHash = (text: string) => text.normalize('NFC').replace(/\s+/gu, ' ').trim()

// Options sorted, so a shuffled copy is the same question; hints, topics and tags are left out: the same question
// with another explanation is still a duplicate for a bank.
export function contentHash(content: HashedContent): string {
  const options = content.options
    .map((option) => [normaliseForHash(option.text.en), normaliseForHash(option.text.ne), option.is_correct ? 1 : 0])
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))
  const key = JSON.stringify([normaliseForHash(content.text.en), normaliseForHash(content.text.ne), options])
  return createHash('sha256').update(key).digest('hex')
}
