import { createLearners } from '../users/user-admin.service'
import { createLearnersUsage, parseCreateLearnersArgs } from './args'
import { runCommand } from './run-command'

await runCommand({
  usage: createLearnersUsage,
  parse: parseCreateLearnersArgs,
  run: async (args, { database, clock }) => {
    const { created, skipped } = await createLearners(database, clock, args)
    const skippedNote = skipped > 0 ? ` (skipped ${skipped} that already existed)` : ''
    return `Created ${created} learners${skippedNote}: ${args.prefix}1..${args.prefix}${args.count}.`
  },
})
