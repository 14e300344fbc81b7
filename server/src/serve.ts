import cluster from 'node:cluster'
import { setFlagsFromString } from 'node:v8'
import closeWithGrace from 'close-with-grace'
import sharp from 'sharp'
import { buildApp } from './app'
import { createSmsSender } from './sms/create-sms-sender'
import { runPrimary } from './cluster'
import { createTokenSigner } from './http/tokens'
import type { Config } from './config'
import { createDatabase } from './db/database'
import { migrateForApp } from './db/app-role'
import { systemClock } from './lib/clock'
import { blockUntrustedLoaders } from './lib/decode-gate'

// A start storm makes V8 pretenure every per-request site: 350 MB one run in two; off, under 300 MB (decision 041).
setFlagsFromString('--no-allocation-site-pretenuring')
// libvips's cache would only hold 12 MP photos read once (bench:scans, docs/decisions/055).
sharp.cache(false)
// One libvips thread per decode: the decode gate's two decodes then take at most two cores (docs/decisions/060).
sharp.concurrency(1)
// Only the JPEG, PNG, WebP and GIF loaders, behind the gate's magic bytes (docs/decisions/088).
blockUntrustedLoaders()

export async function serve(config: Config) {
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config)
  const database = createDatabase(config.database)
  // With WORKERS > 1 the primary migrated before it forked this process.
  const warnings = cluster.isWorker ? [] : await migrateForApp(config.database, database)
  const clock = systemClock
  const tokens = createTokenSigner({
    secret: config.jwtSecret,
    accessTtl: config.accessTokenTtl,
    refreshTtl: config.refreshTokenTtl,
    sessionMaxTtl: config.sessionMaxSeconds,
    clock,
  })
  const app = await buildApp({ config, database, clock, tokens, sms: createSmsSender(config, clock) })
  for (const warning of warnings) app.log.warn(warning)

  // Draining, onClose hooks, the database (docs/operations.md); 25 s: past SMS and payment timeouts, under Kubernetes' 30.
  closeWithGrace({ delay: 25_000 }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'shutting down after an error')
    else app.log.info({ signal }, 'stopping: finishing requests in flight')
    await app.close()
    await database.destroy()
    app.log.info('stopped')
  })

  await app.listen({ port: config.port, host: config.host })
  app.log.info(
    `database: ${config.database.kind}${config.database.kind === 'sqlite' ? ` (${config.database.file})` : ''}`,
  )
}
