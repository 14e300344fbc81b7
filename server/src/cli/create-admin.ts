import { createOrPromoteAdmin } from '../users/user-admin.service'
import { createAdminUsage, parseCreateAdminArgs } from './args'
import { runCommand } from './run-command'

await runCommand({
  usage: createAdminUsage,
  parse: parseCreateAdminArgs,
  run: async (args, { database, clock }) => {
    const result = await createOrPromoteAdmin(database, clock, args)
    switch (result.action) {
      case 'created':
        return `Created admin ${result.username} (id ${result.id}).`
      case 'promoted':
        return `Made existing user ${result.username} (id ${result.id}) an admin.`
      case 'already_admin':
        return `${result.username} (id ${result.id}) is already an admin; nothing changed.`
    }
  },
})
