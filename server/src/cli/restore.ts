import { BackupRefused, restoreSqlite } from '../db/sqlite-backup'
import { parseRestoreArgs, restoreUsage } from './args'
import { runTool } from './run-command'

await runTool({
  usage: restoreUsage,
  parse: parseRestoreArgs,
  run: async ({ file }, { config }) => {
    if (config.database.kind !== 'sqlite')
      throw new BackupRefused('DATABASE_URL names PostgreSQL: restore with pg_restore (README, "Backups").')
    const { restored, previous } = await restoreSqlite(file, config.database.file, new Date())
    const kept = previous ? ` The database it replaced is kept as ${previous}.` : ''
    return (
      `Restored ${file} into ${restored.file}: ${restored.users} users, ${restored.attempts} attempts, ` +
      `migration ${restored.migration}.${kept} Start the server to apply any newer migrations.`
    )
  },
})
