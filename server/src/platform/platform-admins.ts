import { findUserByUsername, insertUser, takenPhones, updateUser } from '../accounts/users.repository'
import { CHANGED, commandLineActor, recordPlatformAudit } from '../audit/audit-log'
import type { Database } from '../db/database'
import type { Clock } from '../lib/clock'
import { checkedNewAccount, checkUsername, UserAdminError, type CreateAdminResult } from '../users/user-admin.service'

/**
 * `npm run create-admin -- --platform` (docs/decisions/097): a platform admin, who belongs to no institute, or with
 * `promote` an existing account made one (refused without it, as create-admin refuses, decision 023). In the
 * platform's trail, not an institute's.
 */
export async function createOrPromotePlatformAdmin(
  database: Database,
  clock: Clock,
  {
    username,
    password,
    phone,
    promote = false,
  }: { username: string; password?: string; phone?: string; promote?: boolean },
): Promise<CreateAdminResult> {
  const name = checkUsername(username)
  const existing = await findUserByUsername(database.db, name)
  if (existing) {
    if (password !== undefined || phone !== undefined || !promote) {
      if (existing.is_platform_admin === 1 && password === undefined && phone === undefined)
        return { action: 'already_admin', id: existing.id, username: existing.username }
      throw new UserAdminError(
        `A user named "${existing.username}" already exists. Choose another username for a new platform admin, or ` +
          'run again with --promote (and without --password and --phone) to make this account a platform admin.',
      )
    }
    if (existing.is_platform_admin === 1)
      return { action: 'already_admin', id: existing.id, username: existing.username }
    await database.transaction(async (trx) => {
      await updateUser(trx, existing.id, { is_platform_admin: 1 })
      await recordPlatformAudit(trx, commandLineActor(), clock.now(), {
        action: 'admin_grant',
        entityType: 'user',
        entityId: existing.id,
        label: existing.username,
        before: { is_platform_admin: false },
        after: { is_platform_admin: true },
      })
    })
    return { action: 'promoted', id: existing.id, username: existing.username }
  }
  if (promote) throw new UserAdminError(`No user named "${name}" exists to promote.`)
  const account = await checkedNewAccount(name, password, phone)
  const created = await database.transaction(async (trx) => {
    if ((await takenPhones(trx, [account.phone])).size > 0)
      throw new UserAdminError(`Phone number ${account.phone} is already registered to another user.`)
    const now = clock.now()
    const user = await insertUser(trx, {
      username: name,
      phone_number: account.phone,
      password_hash: account.passwordHash,
      is_platform_admin: 1,
      created_at: now,
    })
    await recordPlatformAudit(trx, commandLineActor(), now, {
      action: 'admin_grant',
      entityType: 'user',
      entityId: user.id,
      label: user.username,
      after: { username: user.username, phone_number: user.phone_number, is_platform_admin: true, password: CHANGED },
    })
    return user
  })
  return { action: 'created', id: created.id, username: created.username }
}
