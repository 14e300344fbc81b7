import type { NotificationKind, PushMessage } from '@quiz/contracts'

// Push services take at most 4,096 bytes of encrypted record (RFC 8291 adds 103): a longer message never arrives.
export const PUSH_MESSAGE_MAX_BYTES = 3000

const bytes = (text: string) => Buffer.byteLength(text, 'utf8')

function cut(text: string, max: number): string {
  if (bytes(text) <= max) return text
  let out = ''
  for (const char of text) {
    if (bytes(out) + bytes(char) + bytes('…') > max) break
    out += char
  }
  return `${out}…`
}

export function pushMessage(message: {
  kind: NotificationKind
  text: { en: string; ne: string }
  link: string | null
  lang: 'en' | 'ne'
}): string {
  const whole: PushMessage = { ...message }
  let json = JSON.stringify(whole)
  if (bytes(json) <= PUSH_MESSAGE_MAX_BYTES) return json
  // Both texts get the same share of what the rest leaves (JSON escapes counted generously by halving).
  const rest = bytes(JSON.stringify({ ...message, text: { en: '', ne: '' } }))
  const share = Math.floor((PUSH_MESSAGE_MAX_BYTES - rest) / 2)
  let budget = share
  do {
    json = JSON.stringify({ ...message, text: { en: cut(message.text.en, budget), ne: cut(message.text.ne, budget) } })
    budget = Math.floor(budget * 0.8)
  } while (bytes(json) > PUSH_MESSAGE_MAX_BYTES && budget > 0)
  return json
}
