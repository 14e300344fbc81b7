import { PhoneNumberSchema, UsernameSchema } from '@quiz/contracts'
import { hashPassword } from '../accounts/passwords'
import { findPaidAccessUntil, setPaidAccessUntil } from '../accounts/paid-access.repository'
import { isTooSimilar, passwordProblems } from '../accounts/password-rules'
import { CHANGED, changedFields, commandLineActor, recordAudit } from '../audit/audit-log'
import type { Database } from '../db/database'
import { inRequestScope } from '../db/request-scope'
import { PAID_ACCESS_NO_END } from '../db/schema'
import {
  findMembership,
  hasAnyRole,
  insertLearnerMemberships,
  listInstituteSlugs,
  saveMembership,
  withRole,
} from '../institutes/memberships.service'
import { toIso, type Clock } from '../lib/clock'
import {
  findUserByUsername,
  insertUser,
  insertUsers,
  takenPhones,
  takenUsernameKeys,
  usernameKey,
} from '../accounts/users.repository'

export class UserAdminError extends Error {}

export function checkUsername(username: string): string {
  const parsed = UsernameSchema.safeParse(username)
  if (!parsed.success) throw new UserAdminError(`Invalid username "${username}": ${parsed.error.issues[0]!.message}`)
  return parsed.data
}

function checkPassword(password: string, username: string | undefined) {
  const problems = passwordProblems(password, username)
  if (problems.length > 0) throw new UserAdminError(`Refusing the password: ${problems.join(' ')}`)
}

/** A new account's phone and password hash as create-admin takes them (an institute's admin or a platform admin). */
export async function checkedNewAccount(name: string, password: string | undefined, phone: string | undefined) {
  if (password === undefined || phone === undefined)
    throw new UserAdminError(`No user named "${name}" exists; --password and --phone are needed to create one.`)
  const parsed = PhoneNumberSchema.safeParse(phone)
  if (!parsed.success) throw new UserAdminError(`Invalid phone number "${phone}": ${parsed.error.issues[0]!.message}`)
  checkPassword(password, name)
  return { phone: parsed.data, passwordHash: await hashPassword(password) }
}

/**
 * The institute a command works in (`--institute SLUG`): the deployment's only one without it, else it must be named.
 * The work runs in that institute's scope, so its audit events are that institute's (docs/decisions/096).
 */
export async function inInstituteOf<T>(
  database: Database,
  slug: string | undefined,
  work: (instituteId: number) => Promise<T>,
): Promise<T> {
  const institutes = await listInstituteSlugs(database.db)
  let institute: { id: number } | undefined = institutes[0]
  if (slug !== undefined) {
    institute = institutes.find((each) => each.slug === slug)
    if (!institute) throw new UserAdminError(`No institute has the slug "${slug}".`)
  } else if (institutes.length !== 1) {
    const slugs = institutes.map((each) => each.slug).join(', ')
    throw new UserAdminError(`This deployment has several institutes (${slugs}): name one with --institute SLUG.`)
  }
  const { id } = institute!
  return inRequestScope({ requestId: 'command-line', institute: id }, () => work(id))
}

export type CreateAdminResult = { action: 'created' | 'promoted' | 'already_admin'; id: number; username: string }

// An existing account is promoted only with `promote`, a password or phone for it refused (docs/decisions/023).
export async function createOrPromoteAdmin(
  database: Database,
  clock: Clock,
  {
    username,
    password,
    phone,
    promote = false,
    institute,
  }: { username: string; password?: string; phone?: string; promote?: boolean; institute?: string | undefined },
): Promise<CreateAdminResult> {
  return inInstituteOf(database, institute, (instituteId) =>
    createOrPromoteAdminIn(database, clock, instituteId, { username, password, phone, promote }),
  )
}

async function createOrPromoteAdminIn(
  database: Database,
  clock: Clock,
  instituteId: number,
  { username, password, phone, promote }: { username: string; password?: string; phone?: string; promote: boolean },
): Promise<CreateAdminResult> {
  const name = checkUsername(username)
  const existing = await findUserByUsername(database.db, name)
  if (existing) {
    if (password !== undefined || phone !== undefined) {
      throw new UserAdminError(
        `A user named "${existing.username}" already exists; create-admin never changes an existing account's ` +
          'password or phone. Choose another username for a new admin, or run again without --password and ' +
          '--phone (and with --promote) to make this account an admin.',
      )
    }
    const roles = await findMembership(database.db, existing.id, instituteId)
    if (roles?.is_admin === 1) return { action: 'already_admin', id: existing.id, username: existing.username }
    if (!promote) {
      throw new UserAdminError(
        `A user named "${existing.username}" already exists and is not an admin. Anyone can register through the ` +
          'app, so it may not be yours: choose another username, or, if you know whose account it is, run again ' +
          'with --promote to make it an admin.',
      )
    }
    await database.transaction(async (trx) => {
      const now = clock.now()
      const current = hasAnyRole(roles) ? roles : undefined
      await saveMembership(trx, { userId: existing.id, instituteId, roles: withRole(current, 'admin'), now })
      await recordAudit(trx, commandLineActor(), now, {
        action: 'admin_grant',
        entityType: 'user',
        entityId: existing.id,
        label: existing.username,
        before: { is_admin: false },
        after: { is_admin: true },
      })
    })
    return { action: 'promoted', id: existing.id, username: existing.username }
  }
  if (promote) throw new UserAdminError(`No user named "${name}" exists to promote.`)
  const account = await checkedNewAccount(name, password, phone)
  const created = await database.transaction(async (trx) => {
    if ((await takenPhones(trx, [account.phone])).size > 0) {
      throw new UserAdminError(`Phone number ${account.phone} is already registered to another user.`)
    }
    const now = clock.now()
    const user = await insertUser(trx, {
      username: name,
      phone_number: account.phone,
      password_hash: account.passwordHash,
      created_at: now,
    })
    await saveMembership(trx, {
      userId: user.id,
      instituteId,
      roles: { is_learner: 1, is_admin: 1, is_marker: 0 },
      now,
    })
    await recordAudit(trx, commandLineActor(), now, {
      action: 'admin_grant',
      entityType: 'user',
      entityId: user.id,
      label: user.username,
      after: { username: user.username, phone_number: user.phone_number, is_admin: true, password: CHANGED },
    })
    return user
  })
  return { action: 'created', id: created.id, username: created.username }
}

export const MAX_LEARNERS_PER_RUN = 100_000
// No Nepali mobile number starts with "00": an OTP sent to a made-up one can never reach a real person.
const BULK_PHONE_PREFIX = '00'
const INSERT_BATCH = 500

// One password hash for all (hashing is slow on purpose) and one transaction.
export async function createLearners(
  database: Database,
  clock: Clock,
  {
    count,
    prefix,
    password,
    institute,
  }: { count: number; prefix: string; password: string; institute?: string | undefined },
): Promise<{ created: number; skipped: number }> {
  return inInstituteOf(database, institute, (instituteId) =>
    createLearnersIn(database, clock, instituteId, { count, prefix, password }),
  )
}

async function createLearnersIn(
  database: Database,
  clock: Clock,
  instituteId: number,
  { count, prefix, password }: { count: number; prefix: string; password: string },
): Promise<{ created: number; skipped: number }> {
  if (!Number.isInteger(count) || count < 1 || count > MAX_LEARNERS_PER_RUN) {
    throw new UserAdminError(`--count must be a whole number from 1 to ${MAX_LEARNERS_PER_RUN}.`)
  }
  checkUsername(`${prefix}1`)
  checkUsername(`${prefix}${count}`)
  const names = Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`)
  checkPassword(password, undefined)
  const similarTo = names.find((name) => isTooSimilar(password, name))
  if (similarTo) throw new UserAdminError(`Refusing the password: it is too similar to the username ${similarTo}.`)
  const passwordHash = await hashPassword(password)
  const now = clock.now()

  return database.transaction(async (trx) => {
    let created = 0
    let nextPhone = 1
    for (let start = 0; start < names.length; start += INSERT_BATCH) {
      const batch = names.slice(start, start + INSERT_BATCH)
      const taken = await takenUsernameKeys(trx, batch.map(usernameKey))
      const fresh = batch.filter((name) => !taken.has(usernameKey(name)))
      if (fresh.length === 0) continue
      const phones: string[] = []
      while (phones.length < fresh.length) {
        const candidates = Array.from(
          { length: fresh.length - phones.length },
          () => `${BULK_PHONE_PREFIX}${String(nextPhone++).padStart(8, '0')}`,
        )
        const used = await takenPhones(trx, candidates)
        phones.push(...candidates.filter((phone) => !used.has(phone)))
      }
      const ids = await insertUsers(
        trx,
        fresh.map((name, i) => ({
          username: name,
          phone_number: phones[i]!,
          password_hash: passwordHash,
          created_at: now,
        })),
      )
      await insertLearnerMemberships(trx, ids, instituteId, now)
      created += fresh.length
    }
    if (created > 0)
      await recordAudit(trx, commandLineActor(), now, {
        action: 'create',
        entityType: 'user',
        entityId: null,
        label: `${prefix}1..${prefix}${count}`,
        after: { created, skipped: count - created, password: CHANGED },
      })
    return { created, skipped: count - created }
  })
}

// With `days`, from the later of now and the current end (as a purchase does); without, no end.
export async function setPaidAccess(
  database: Database,
  clock: Clock,
  {
    username,
    revoke,
    days,
    institute,
  }: { username: string; revoke: boolean; days?: number; institute?: string | undefined },
): Promise<{ username: string; changed: boolean; until: number | null }> {
  return inInstituteOf(database, institute, (instituteId) =>
    setPaidAccessIn(database, clock, instituteId, { username, revoke, ...(days !== undefined && { days }) }),
  )
}

async function setPaidAccessIn(
  database: Database,
  clock: Clock,
  instituteId: number,
  { username, revoke, days }: { username: string; revoke: boolean; days?: number },
): Promise<{ username: string; changed: boolean; until: number | null }> {
  if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > 3660))
    throw new UserAdminError('--days must be a whole number from 1 to 3660.')
  return database.transaction(async (trx) => {
    const user = await findUserByUsername(trx, username)
    if (!user) throw new UserAdminError(`No user named "${username}" exists.`)
    if (!hasAnyRole(await findMembership(trx, user.id, instituteId)))
      throw new UserAdminError(`${user.username} is not a member of this institute.`)
    const now = clock.now()
    // The membership's in this institute (docs/decisions/103): a grant here opens nothing at the account's others.
    const stored = await findPaidAccessUntil(trx, user.id, instituteId)
    const current = stored !== null && stored > now ? stored : null
    let wanted: number | null
    if (revoke) wanted = null
    else if (days === undefined || current === PAID_ACCESS_NO_END) wanted = PAID_ACCESS_NO_END
    else wanted = Math.max(now, current ?? now) + days * 86_400_000
    const changed = wanted !== current
    if (changed || stored !== wanted) await setPaidAccessUntil(trx, user.id, instituteId, wanted)
    const access = (until: number | null) => ({
      has_paid_access: until !== null && until > now,
      paid_access_until: until === null || until <= now || until === PAID_ACCESS_NO_END ? null : toIso(until),
    })
    await recordAudit(trx, commandLineActor(), now, {
      action: 'update',
      entityType: 'user',
      entityId: user.id,
      label: user.username,
      ...changedFields(access(stored), access(wanted)),
    })
    return { username: user.username, changed, until: wanted }
  })
}
