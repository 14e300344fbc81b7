import { UsageError } from './args'
import { runCommand } from './run-command'

await runCommand({
  usage: 'Usage: npm run db:migrate',
  parse: (argv) => {
    if (argv.length > 0) throw new UsageError(`Unexpected arguments: ${argv.join(' ')}`)
  },
  run: async (_args, { describeDatabase }) => `Migrations applied: ${describeDatabase} is up to date.`,
})
