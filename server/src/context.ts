import type { TokenSigner } from './http/tokens'
import type { SmsSender } from './sms/sms-sender'
import type { Config } from './config'
import type { Database } from './db/database'
import type { FileStore } from './files'
import type { Clock } from './lib/clock'
import type { Metrics } from './lib/metrics'

/** What every feature may depend on; services.ts builds each service from it. */
export interface AppContext {
  config: Config
  database: Database
  clock: Clock
  sms: SmsSender
  tokens: TokenSigner
  /** Made by buildApp for each app; counts what operators watch (lib/metrics.ts). */
  metrics: Metrics
  /** Where pictures, scans and pages live (docs/decisions/105); buildApp makes it from config unless given one. */
  files: FileStore
}
