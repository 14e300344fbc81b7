import { createHash } from 'node:crypto'

export interface HashedContent {
  text: { en: string; ne: string }
  options: readonly { text: { en: string; ne: string }; is_correct: boolean }[]
  type?: 'choice' | 'written'
}

export const normaliseForHash = (text: string) => text.normalize('NFC').replace(/\s+/gu, ' ').trim()

// Options sorted: a shuffled copy is the same question. Hints, topics and tags are not part of it.
export function contentHash(content: HashedContent): string {
  const options = content.options
    .map((option) => [normaliseForHash(option.text.en), normaliseForHash(option.text.ne), option.is_correct ? 1 : 0])
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))
  const texts = [normaliseForHash(content.text.en), normaliseForHash(content.text.ne)]
  // A written question is its text alone; choice questions keep the hashes they were stored with.
  const key = JSON.stringify(content.type === 'written' ? ['written', ...texts] : [...texts, options])
  return createHash('sha256').update(key).digest('hex')
}
