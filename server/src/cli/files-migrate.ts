import { createFileStore, fileStoreBackupNote } from '../files'
import { moveFilesIntoStore, tablesHoldingFiles } from '../db/move-files'
import { filesMigrateUsage, parseFilesMigrateArgs } from './args'
import { runCommand } from './run-command'

// npm run files:migrate (API.md "Operations", Files; docs/decisions/112): safe to run while servers serve, to stop
// (Ctrl-C, a kill) and to run again.
await runCommand({
  usage: filesMigrateUsage,
  parse: parseFilesMigrateArgs,
  run: async ({ batch }, { database, config, describeDatabase }) => {
    const files = createFileStore(config)
    const started = Date.now()
    const reports = await moveFilesIntoStore(database, files, {
      batch,
      onBatch: ({ table, moved }) => console.log(`${table}: moved ${moved}`),
    })
    const left = await tablesHoldingFiles(database)
    const moved = reports.map(({ table, moved }) => `${table} ${moved}`).join(', ')
    return (
      `Moved the files of ${describeDatabase} into the ${files.kind} file store in ${Date.now() - started} ms: ` +
      `${moved}.\n` +
      (left.length === 0
        ? 'No table holds a file any more.'
        : `Still holding files (written meanwhile by an older server?): ${left.join(', ')}; run it again.`) +
      `\n${fileStoreBackupNote(config)}`
    )
  },
})
