import { createHash } from 'node:crypto'

/** What makes two questions the same one (API.md "Import": duplicates): both texts, the options and the answer. */
export interface HashedContent {
  text: { en: string; ne: string }
  options: readonly { text: { en: string; ne: string }; is_correct: boolean }[]
}

/** NFC with every run of white space (no-break spaces too) one space and none at the ends. */
export const normaliseForHash = (text: string) => text.normalize('NFC').replace(/\s+/gu, ' ').trim()

/**
 * A hex SHA-256 of the question's normalised texts and options. The options are sorted, so the same question with
 * its options in another order (a shuffled printout, another teacher's copy) is still the same question; the
 * answer is kept as the option it marks. Hints, topics and tags are not part of it: the same question with another
 * explanation is still a duplicate for a bank.
 */
export function contentHash(content: HashedContent): string {
  const options = content.options
    .map((option) => [normaliseForHash(option.text.en), normaliseForHash(option.text.ne), option.is_correct ? 1 : 0])
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))
  const key = JSON.stringify([normaliseForHash(content.text.en), normaliseForHash(content.text.ne), options])
  return createHash('sha256').update(key).digest('hex')
}
