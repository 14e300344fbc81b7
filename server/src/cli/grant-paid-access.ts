import { PAID_ACCESS_NO_END } from '../db/schema'
import { setPaidAccess } from '../users/user-admin.service'
import { grantPaidAccessUsage, parseGrantPaidAccessArgs } from './args'
import { runCommand } from './run-command'

await runCommand({
  usage: grantPaidAccessUsage,
  parse: parseGrantPaidAccessArgs,
  run: async (args, { database, clock }) => {
    const { username, changed, until } = await setPaidAccess(database, clock, args)
    if (until === null)
      return changed ? `Revoked paid access from ${username}.` : `${username} has no paid access; nothing changed.`
    const end = until === PAID_ACCESS_NO_END ? 'with no end' : `until ${new Date(until).toISOString()}`
    return changed
      ? `Granted paid access to ${username} ${end}.`
      : `${username} already has paid access ${end}; nothing changed.`
  },
})
