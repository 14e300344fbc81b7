import type { Config } from '../../config'
import type { Clock } from '../../lib/clock'
import { createConsoleSender } from './console-sender'
import type { SmsSender } from './sms-sender'

export function createSmsSender(config: Config, clock: Clock): SmsSender {
  switch (config.sms.provider) {
    case 'console':
      return createConsoleSender(config.sms.outbox, clock)
    default:
      throw new Error(`SMS provider ${config.sms.provider} is not available yet`)
  }
}
