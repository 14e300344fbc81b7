import 'dotenv/config'
import { ConfigError, loadConfig } from '../config'
import { createDatabase, type Database } from '../db/database'
import { migrateToLatest } from '../db/migrate'
import { systemClock, type Clock } from '../lib/clock'
import { UserAdminError } from '../users/user-admin.service'
import { UsageError } from './args'

/**
 * Runs one command-line tool: parses its arguments first (bad ones fail before any database work), then
 * opens and migrates the configured database, runs the command and prints what it did. Exit status: 0 done,
 * 1 refused or failed, 2 bad arguments.
 */
export async function runCommand<A>(
  {
    usage,
    parse,
    run,
  }: {
    usage: string
    parse: (argv: string[]) => A
    run: (args: A, context: { database: Database; clock: Clock; describeDatabase: string }) => Promise<string>
  },
  argv: string[] = process.argv.slice(2),
): Promise<void> {
  let database: Database | undefined
  try {
    const args = parse(argv)
    const config = loadConfig()
    database = createDatabase(config.database)
    await migrateToLatest(database)
    const describeDatabase = config.database.kind === 'sqlite' ? `SQLite at ${config.database.file}` : 'PostgreSQL'
    console.log(await run(args, { database, clock: systemClock, describeDatabase }))
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n${usage}`)
      process.exitCode = 2
    } else if (error instanceof UserAdminError || error instanceof ConfigError) {
      console.error(error.message)
      process.exitCode = 1
    } else {
      console.error(error)
      process.exitCode = 1
    }
  } finally {
    await database?.destroy()
  }
}
