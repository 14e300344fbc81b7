import { appendFile, mkdir } from 'node:fs/promises'
import path from 'node:path'
import type { Clock } from '../lib/clock'
import type { SmsMessage, SmsSender } from './sms-sender'

/**
 * Development outbox: sends nothing, appends each message as one JSON line so a developer (or an
 * end-to-end test) can read the code. config.ts refuses it in production.
 */
export function createConsoleSender(
  outbox: string,
  clock: Clock,
  log: (line: string) => void = console.log,
): SmsSender {
  return {
    async send({ to, text, purpose }: SmsMessage) {
      await mkdir(path.dirname(outbox), { recursive: true })
      await appendFile(
        outbox,
        `${JSON.stringify({ to, text, purpose, sent_at: new Date(clock.now()).toISOString() })}\n`,
      )
      log(`[sms outbox] to ${to} (${purpose}): ${text}`)
    },
  }
}
