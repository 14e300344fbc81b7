export type OtpPurpose = 'login' | 'register' | 'reset'

/** Why a message is sent: a code's purpose, or a notification's (`live_reminder`), written to the outbox and logs. */
export type SmsPurpose = OtpPurpose | 'live_reminder' | (string & {})

export interface SmsMessage {
  to: string
  text: string
  purpose: SmsPurpose
  /** The sender id shown to the phone: an institute's own (`sms_sender`); absent, the deployment's SMS_SENDER_ID. */
  sender?: string | undefined
}

export interface SmsSender {
  send(message: SmsMessage): Promise<void>
}

export class SmsDeliveryError extends Error {}
