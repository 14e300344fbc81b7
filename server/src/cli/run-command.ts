import 'dotenv/config'
import { ConfigError, loadConfig, type Config } from '../config'
import { createDatabase, type Database } from '../db/database'
import { migrateForApp } from '../db/app-role'
import { listInstitutes } from '../db/institute-jobs'
import { inRequestScope } from '../db/request-scope'
import { BackupRefused } from '../db/sqlite-backup'
import { systemClock, type Clock } from '../lib/clock'
import { AppError } from '../http/errors'
import { UserAdminError } from '../users/user-admin.service'
import { UsageError } from './args'

interface Tool<A, C> {
  usage: string
  parse: (argv: string[]) => A
  run: (args: A, context: C) => Promise<string>
}

// Bad arguments fail before anything else. Exit status: 0 done, 1 refused or failed, 2 bad arguments.
export async function runTool<A>(
  { usage, parse, run }: Tool<A, { config: Config }>,
  argv: string[] = process.argv.slice(2),
): Promise<void> {
  try {
    const args = parse(argv)
    console.log(await run(args, { config: loadConfig() }))
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n${usage}`)
      process.exitCode = 2
    } else if (
      error instanceof UserAdminError ||
      error instanceof AppError ||
      error instanceof ConfigError ||
      error instanceof BackupRefused
    ) {
      console.error(error.message)
      process.exitCode = 1
    } else {
      console.error(error)
      process.exitCode = 1
    }
  }
}

export function runCommand<A>(
  { usage, parse, run }: Tool<A, { database: Database; clock: Clock; describeDatabase: string; config: Config }>,
  argv: string[] = process.argv.slice(2),
): Promise<void> {
  return runTool(
    {
      usage,
      parse,
      run: async (args, { config }) => {
        const database = createDatabase(config.database)
        try {
          await migrateForApp(config.database, database)
          const describeDatabase =
            config.database.kind === 'sqlite' ? `SQLite at ${config.database.file}` : 'PostgreSQL'
          // Row security shows a session set to no institute nothing: a lone institute's commands run as its
          // requests do; with several, a command names its institute and runs in inInstituteScope (decision 098).
          const context = { database, clock: systemClock, describeDatabase, config }
          const institutes = await listInstitutes(database)
          if (database.dialect !== 'postgres' || institutes.length !== 1) return await run(args, context)
          return await inRequestScope({ requestId: 'cli', sessionInstitute: institutes[0]!.id }, () =>
            run(args, context),
          )
        } finally {
          await database.destroy()
        }
      },
    },
    argv,
  )
}
