import { SmsDeliveryError, type SmsMessage, type SmsSender } from '../src/sms/sms-sender'

/** The SMS sender of API tests: keeps messages in memory so a test reads the code a learner would receive. */
export class MemorySms implements SmsSender {
  readonly sent: SmsMessage[] = []
  failing = false

  async send(message: SmsMessage) {
    if (this.failing) throw new SmsDeliveryError('gateway down')
    this.sent.push(message)
  }

  /** The 6-digit code of the last message sent to `phone` (optionally for one purpose). */
  lastCode(phone: string, purpose?: SmsMessage['purpose']): string {
    const message = this.sent.findLast((m) => m.to === phone && (!purpose || m.purpose === purpose))
    const code = message?.text.match(/\b(\d{6})\b/)?.[1]
    if (!code) throw new Error(`no code was sent to ${phone}`)
    return code
  }
}
