/**
 * Words as the server counts them (docs/decisions/067): runs of anything but Unicode whitespace, so Nepali and
 * English count alike and the danda sticks to its word as a full stop does.
 */
export function countWords(text: string): number {
  return text.match(/\S+/gu)?.length ?? 0
}
