import type { AddMembersRequest, AddMembersResponse, Member, MemberPage, Membership, Role } from '@quiz/contracts'
import { recordAudit, type AuditActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import { NotFound } from '../http/errors'
import { toIso } from '../lib/clock'
import {
  accountsByPhone,
  countMembers,
  findMember,
  hasAnyRole,
  listMembershipsOf,
  pageMembers,
  rolesFrom,
  rolesOf,
  saveInvitations,
  saveMembership,
  withRole,
  type MemberRow,
} from './members.repository'

const memberNotFound = () => new NotFound('Member not found.')

const toMember = (row: MemberRow): Member => ({
  id: row.id,
  username: row.username,
  full_name: row.full_name,
  phone_number: row.phone_number,
  roles: rolesOf(row),
  joined_at: toIso(row.created_at),
})

const NO_ROLES = { is_learner: 0, is_admin: 0, is_marker: 0 }

/** An institute's members (API.md "Institutes"), for its admins; every change is in the institute's audit trail. */
export function createMembersService({ database, clock, config }: Pick<AppContext, 'database' | 'clock' | 'config'>) {
  const { db } = database

  async function list(
    instituteId: number,
    { search, role, page, page_size }: { search: string; page: number; page_size: number; role?: Role | undefined },
  ): Promise<MemberPage> {
    const filter = { search, ...(role && { role }) }
    const [count, rows] = await Promise.all([
      countMembers(db, instituteId, filter),
      pageMembers(db, instituteId, filter, { limit: page_size, offset: (page - 1) * page_size }),
    ])
    return { count, results: rows.map(toMember) }
  }

  /** Accounts get the role at once, other phones an invitation; all or nothing, in one transaction. */
  async function add(
    instituteId: number,
    { phone_numbers, role }: AddMembersRequest,
    actor: AuditActor,
  ): Promise<AddMembersResponse> {
    const phones = [...new Set(phone_numbers)]
    return database.transaction(async (trx) => {
      const now = clock.now()
      const accounts = await accountsByPhone(trx, instituteId, phones)
      const result: AddMembersResponse = { added: [], invited: [], already: [] }
      for (const phone of phones) {
        const account = accounts.get(phone)
        if (!account) {
          result.invited.push(phone)
          continue
        }
        const current = hasAnyRole(account.roles) ? account.roles : undefined
        if (current?.[`is_${role}`] === 1) {
          result.already.push(phone)
          continue
        }
        await saveMembership(trx, { userId: account.id, instituteId, roles: withRole(current, role), now })
        result.added.push(phone)
      }
      await saveInvitations(trx, result.invited, role, now)
      if (result.added.length > 0 || result.invited.length > 0)
        await recordAudit(trx, actor, now, {
          action: 'create',
          entityType: 'user',
          entityId: null,
          label: `members: ${role}`,
          after: { role, added: result.added, invited: result.invited },
        })
      return result
    })
  }

  async function setRoles(instituteId: number, userId: number, roles: Role[], actor: AuditActor): Promise<Member> {
    return database.transaction(async (trx) => {
      const before = await findMember(trx, instituteId, userId)
      if (!before) throw memberNotFound()
      const now = clock.now()
      await saveMembership(trx, { userId, instituteId, roles: rolesFrom(roles), now })
      const after = (await findMember(trx, instituteId, userId))!
      await recordAudit(trx, actor, now, {
        action: 'update',
        entityType: 'user',
        entityId: userId,
        label: after.username,
        before: { roles: rolesOf(before) },
        after: { roles: rolesOf(after) },
      })
      return toMember(after)
    })
  }

  /** Ends the membership: the row stays with no role, so the account cannot sign in or join here again by itself. */
  async function end(instituteId: number, userId: number, actor: AuditActor): Promise<void> {
    await database.transaction(async (trx) => {
      const before = await findMember(trx, instituteId, userId)
      if (!before) throw memberNotFound()
      const now = clock.now()
      await saveMembership(trx, { userId, instituteId, roles: NO_ROLES, now })
      await recordAudit(trx, actor, now, {
        action: 'delete',
        entityType: 'user',
        entityId: userId,
        label: before.username,
        before: { roles: rolesOf(before) },
        after: { roles: [] },
      })
    })
  }

  const { baseDomain } = config.institutes
  async function membershipsOf(userId: number): Promise<Membership[]> {
    const rows = await listMembershipsOf(db, userId)
    return rows.map((row) => ({
      institute: {
        slug: row.slug,
        name: { en: row.name_en, ne: row.name_ne },
        // Every address it answers on: its own hosts, then `{slug}.{BASE_DOMAIN}` (API.md "Institutes").
        hosts: baseDomain ? [...row.hosts, `${row.slug}.${baseDomain}`] : row.hosts,
        logo:
          row.hash === null ? null : { url: `/api/pictures/${row.hash}.webp`, width: row.width!, height: row.height! },
      },
      roles: rolesOf(row),
    }))
  }

  return { list, add, setRoles, end, membershipsOf }
}

export type MembersService = ReturnType<typeof createMembersService>
