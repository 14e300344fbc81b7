import { setPaidAccessUntil } from '../accounts/paid-access.repository'
import type { AdminUser, AdminUserPage, AdminUserPatch } from '@quiz/contracts'
import { changedFields, recordAudit, type AuditActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import { PAID_ACCESS_NO_END, type UserRowUpdate } from '../db/schema'
import { NotFound } from '../http/errors'
import { toIso } from '../lib/clock'
import {
  countUsers,
  findListedUser,
  findMembershipForUpdate,
  pageUsers,
  updateLearner,
  updateMarkerRole,
  type ListedUserRow,
} from './learners.repository'

const userNotFound = () => new NotFound('User not found.')

const accessValues = ({ has_paid_access, paid_access_until, extra_time_percent, is_marker }: AdminUser) => ({
  has_paid_access,
  is_marker,
  paid_access_until,
  extra_time_percent,
})

export function createLearnersService({ database, clock }: Pick<AppContext, 'database' | 'clock'>) {
  const { db } = database

  const toAdminUser = (row: ListedUserRow, now: number): AdminUser => {
    const until = row.paid_access_until
    const hasPaidAccess = until !== null && until > now
    return {
      id: row.id,
      username: row.username,
      full_name: row.full_name,
      phone_number: row.phone_number,
      is_admin: row.is_admin === 1,
      is_marker: row.is_marker === 1,
      has_paid_access: hasPaidAccess,
      paid_access_until: hasPaidAccess && until < PAID_ACCESS_NO_END ? toIso(until) : null,
      extra_time_percent: row.extra_time_percent,
      date_joined: toIso(row.created_at),
      finished_attempts: Number(row.finished_attempts ?? 0),
    }
  }

  /** The members of `instituteId` (the request's), with their roles there. */
  async function listUsers(
    instituteId: number,
    { search, page, page_size }: { search: string; page: number; page_size: number },
  ): Promise<AdminUserPage> {
    const [count, rows] = await Promise.all([
      countUsers(db, instituteId, search),
      pageUsers(db, instituteId, search, { limit: page_size, offset: (page - 1) * page_size }),
    ])
    const now = clock.now()
    return { count, results: rows.map((row) => toAdminUser(row, now)) }
  }

  /** true grants (until the date, else no end), false revokes, a date alone moves the end; one transaction. */
  async function updateUser(
    instituteId: number,
    id: number,
    patch: AdminUserPatch,
    actor: AuditActor,
  ): Promise<AdminUser> {
    return database.transaction(async (trx) => {
      // Paid access is the membership's in this institute (docs/decisions/103), so that row is the one locked.
      const member = await findMembershipForUpdate(trx, id, instituteId, { lock: database.dialect === 'postgres' })
      const listed = member && (await findListedUser(trx, instituteId, id))
      // Another institute's learner is not found here, as another learner's object is not.
      if (!member || !listed) throw userNotFound()
      const now = clock.now()
      const before = toAdminUser(listed, now)
      let paidUntil: number | null | undefined
      const until = patch.paid_access_until === undefined ? undefined : patch.paid_access_until
      if (patch.has_paid_access === false) paidUntil = null
      else if (patch.has_paid_access === true) paidUntil = until ? Date.parse(until) : PAID_ACCESS_NO_END
      else if (until) paidUntil = Date.parse(until)
      // A date removed (null) from a learner who has access leaves access with no end; without access, nothing.
      else if (until === null && member.paid_access_until !== null && member.paid_access_until > now)
        paidUntil = PAID_ACCESS_NO_END
      if (paidUntil !== undefined) await setPaidAccessUntil(trx, id, instituteId, paidUntil)
      const changes: UserRowUpdate = {}
      if (patch.extra_time_percent !== undefined) changes.extra_time_percent = patch.extra_time_percent
      if (Object.keys(changes).length > 0) await updateLearner(trx, id, changes)
      if (patch.is_marker !== undefined) await updateMarkerRole(trx, id, instituteId, patch.is_marker)
      const after = toAdminUser((await findListedUser(trx, instituteId, id))!, now)
      await recordAudit(trx, actor, now, {
        action: 'update',
        entityType: 'user',
        entityId: id,
        label: after.username,
        ...changedFields(accessValues(before), accessValues(after)),
      })
      return after
    })
  }

  return { listUsers, updateUser }
}

export type LearnersService = ReturnType<typeof createLearnersService>
