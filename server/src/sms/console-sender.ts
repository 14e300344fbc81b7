import { appendFile, mkdir } from 'node:fs/promises'
import path from 'node:path'
import type { Clock } from '../lib/clock'
import type { SmsMessage, SmsSender } from './sms-sender'

/** Development outbox, one JSON line a message; config.ts refuses it in production. */
export function createConsoleSender(
  outbox: string,
  clock: Clock,
  log: (line: string) => void = console.log,
): SmsSender {
  return {
    async send({ to, text, purpose, sender }: SmsMessage) {
      // Codes are in it: owner-only, as the rest of the data folder (docs/decisions/023).
      await mkdir(path.dirname(outbox), { recursive: true, mode: 0o700 })
      await appendFile(
        outbox,
        `${JSON.stringify({ to, text, purpose, sender, sent_at: new Date(clock.now()).toISOString() })}\n`,
        { mode: 0o600 },
      )
      log(`[sms outbox] to ${to} (${purpose}): ${text}`)
    },
  }
}
