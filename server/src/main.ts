import closeWithGrace from 'close-with-grace'
import 'dotenv/config'
import { buildApp } from './app'
import { createSmsSender } from './auth/sms/create-sms-sender'
import { createTokenSigner } from './http/tokens'
import { ConfigError, loadConfig } from './config'
import { createDatabase } from './db/database'
import { migrateToLatest } from './db/migrate'
import { systemClock } from './lib/clock'

async function main() {
  const config = loadConfig()
  const database = createDatabase(config.database)
  await migrateToLatest(database)
  const clock = systemClock
  const tokens = createTokenSigner({
    secret: config.jwtSecret,
    accessTtl: config.accessTokenTtl,
    refreshTtl: config.refreshTokenTtl,
    clock,
  })
  const app = await buildApp({ config, database, clock, tokens, sms: createSmsSender(config, clock) })

  closeWithGrace({ delay: 10_000 }, async ({ err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error')
    await app.close()
    await database.destroy()
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
