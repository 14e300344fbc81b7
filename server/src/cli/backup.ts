import { BackupRefused, backupSqlite } from '../db/sqlite-backup'
import { fileStoreBackupNote } from '../files'
import { backupUsage, parseBackupArgs } from './args'
import { runTool } from './run-command'

await runTool({
  usage: backupUsage,
  parse: parseBackupArgs,
  run: async ({ out }, { config }) => {
    if (config.database.kind !== 'sqlite')
      throw new BackupRefused(
        'DATABASE_URL names PostgreSQL: back it up with pg_dump (README, "Backups"), and keep JWT_SECRET with it. ' +
          fileStoreBackupNote(config),
      )
    const started = Date.now()
    const backup = await backupSqlite(config.database.file, out)
    return (
      `Backed up ${config.database.file} to ${backup.file} in ${Date.now() - started} ms: ${backup.bytes} bytes, ` +
      `integrity ok, ${backup.users} users, ${backup.attempts} attempts, migration ${backup.migration}.\n` +
      fileStoreBackupNote(config)
    )
  },
})
