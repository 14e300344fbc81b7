import { createInstitutesService } from '../institutes/institutes.service'
import { createInstituteUsage, parseCreateInstituteArgs } from './args'
import { runCommand } from './run-command'

await runCommand({
  usage: createInstituteUsage,
  parse: parseCreateInstituteArgs,
  run: async (args, { database, clock, config }) => {
    const id = await createInstitutesService({ database, config, clock }).create(args)
    const hosts = [
      ...args.hosts,
      ...(config.institutes.baseDomain ? [`${args.slug}.${config.institutes.baseDomain}`] : []),
    ]
    return `Created institute ${args.slug} (id ${id}), answering on ${hosts.join(', ') || 'no host yet: add one with --host'}.`
  },
})
