import type { Config } from '../config'
import type { Clock } from '../lib/clock'
import { createConsoleSender } from './console-sender'
import { createAakashSender, createHttpGatewaySender, createSparrowSender } from './http-gateway-sender'
import type { SmsSender } from './sms-sender'

export function createSmsSender(config: Config, clock: Clock): SmsSender {
  const { provider, outbox, gatewayUrl, gatewayToken, senderId, timeoutMs } = config.sms
  switch (provider) {
    case 'console':
      return createConsoleSender(outbox, clock)
    case 'http':
      return createHttpGatewaySender({ url: gatewayUrl!, token: gatewayToken, senderId, timeoutMs })
    case 'sparrow':
      return createSparrowSender({ url: gatewayUrl, token: gatewayToken!, senderId, timeoutMs })
    case 'aakash':
      return createAakashSender({ url: gatewayUrl, token: gatewayToken!, timeoutMs })
  }
}
