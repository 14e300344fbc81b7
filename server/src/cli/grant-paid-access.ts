import { setPaidAccess } from '../users/user-admin.service'
import { grantPaidAccessUsage, parseGrantPaidAccessArgs } from './args'
import { runCommand } from './run-command'

await runCommand({
  usage: grantPaidAccessUsage,
  parse: parseGrantPaidAccessArgs,
  run: async (args, { database }) => {
    const { username, changed, hasPaidAccess } = await setPaidAccess(database, args)
    if (!changed) return `${username} ${hasPaidAccess ? 'already has' : 'has no'} paid access; nothing changed.`
    return hasPaidAccess ? `Granted paid access to ${username}.` : `Revoked paid access from ${username}.`
  },
})
