export type OtpPurpose = 'login' | 'register' | 'reset'

export interface SmsMessage {
  to: string
  text: string
  purpose: OtpPurpose
}

/** Sends one text message. Throws SmsDeliveryError when the message was not accepted for delivery. */
export interface SmsSender {
  send(message: SmsMessage): Promise<void>
}

export class SmsDeliveryError extends Error {}
