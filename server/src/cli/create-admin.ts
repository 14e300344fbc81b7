import { createOrPromotePlatformAdmin } from '../platform/platform-admins'
import { createOrPromoteAdmin } from '../users/user-admin.service'
import { createAdminUsage, parseCreateAdminArgs } from './args'
import { runCommand } from './run-command'

await runCommand({
  usage: createAdminUsage,
  parse: parseCreateAdminArgs,
  run: async (args, { database, clock }) => {
    const platform = args.platform === true
    const result = platform
      ? await createOrPromotePlatformAdmin(database, clock, args)
      : await createOrPromoteAdmin(database, clock, args)
    const role = platform ? 'platform admin' : 'admin'
    switch (result.action) {
      case 'created':
        return `Created ${role} ${result.username} (id ${result.id}).`
      case 'promoted':
        return `Made existing user ${result.username} (id ${result.id}) ${platform ? 'a' : 'an'} ${role}.`
      case 'already_admin':
        return `${result.username} (id ${result.id}) is already ${platform ? 'a' : 'an'} ${role}; nothing changed.`
    }
  },
})
