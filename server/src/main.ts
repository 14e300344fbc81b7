import cluster from 'node:cluster'
import { setFlagsFromString } from 'node:v8'
import closeWithGrace from 'close-with-grace'
import 'dotenv/config'
import sharp from 'sharp'
import { buildApp } from './app'
import { createSmsSender } from './sms/create-sms-sender'
import { runPrimary } from './cluster'
import { createTokenSigner } from './http/tokens'
import { ConfigError, loadConfig } from './config'
import { createDatabase } from './db/database'
import { migrateToLatest } from './db/migrate'
import { systemClock } from './lib/clock'

// V8 moves the objects of a code site to the old generation once nearly all of them outlive a young collection. A
// start storm (a thousand requests queued at once) makes every per-request site look so, and the exam's requests
// that follow then fill the old generation with garbage that keeps their young objects alive: 350 MB and eight
// times the collection time, one run in two. Off, the exam stays under DESIGN.md's 300 MB (docs/decisions/041).
setFlagsFromString('--no-allocation-site-pretenuring')
// libvips keeps recent operations and their decoded images; every picture and answer-sheet photo is read once, so
// the cache only holds 12 MP photos no one asks for again (bench:scans, docs/decisions/055).
sharp.cache(false)

async function main() {
  const config = loadConfig()
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config)
  const database = createDatabase(config.database)
  // With WORKERS > 1 the primary migrated before it forked this process.
  if (!cluster.isWorker) await migrateToLatest(database)
  const clock = systemClock
  const tokens = createTokenSigner({
    secret: config.jwtSecret,
    accessTtl: config.accessTokenTtl,
    refreshTtl: config.refreshTokenTtl,
    clock,
  })
  const app = await buildApp({ config, database, clock, tokens, sms: createSmsSender(config, clock) })

  // SIGTERM or SIGINT: app.close() stops accepting connections, answers 503 to requests that arrive on open ones
  // (http/draining.ts), waits for those in flight and closes idle keep-alive connections; then its onClose hooks
  // run (the place for anything that must reach the database before it closes, such as grouped writes); then the
  // database closes (SQLite checkpoints its WAL). A second signal, or 25 s (longer than the SMS and payment
  // timeouts, shorter than Kubernetes' 30 s), ends the process at once with status 1.
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

main().catch((error) => {
  if (error instanceof ConfigError) {
    console.error(error.message)
  } else {
    console.error(error)
  }
  process.exit(1)
})
