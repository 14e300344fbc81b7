import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { AppError, PermissionDenied } from '../http/errors'
import {
  deleteInvitation,
  findInvitation,
  findMembership,
  findOpenRegistration,
  hasAnyRole,
  saveMembership,
  withRole,
  type Roles,
} from './members.repository'

export const signInMessages = {
  notAMember: 'This account is not a member of this institute.',
  registrationClosed: 'This institute takes new learners only by invitation.',
} as const

export const notAMember = (canJoin: boolean) =>
  new AppError(403, 'not_a_member', signInMessages.notAMember, undefined, undefined, { can_join: canJoin })

export const registrationClosed = () => new PermissionDenied(signInMessages.registrationClosed, 'registration_closed')

/**
 * An invitation for this phone in the request's institute becomes its membership (API.md "Institutes"): the invited
 * role, and the learner's too when `asLearner` (registration, joining). Undefined: none was waiting.
 */
export async function redeemInvitation(
  trx: Kysely<DB>,
  { userId, phoneNumber, instituteId, now, asLearner }: MembershipStep,
): Promise<Roles | undefined> {
  const invited = await findInvitation(trx, phoneNumber)
  if (invited === undefined) return undefined
  const current = await findMembership(trx, userId, instituteId)
  const base = hasAnyRole(current) ? current : undefined
  const roles = withRole(asLearner ? withRole(base, 'learner') : base, invited)
  await saveMembership(trx, { userId, instituteId, roles, now })
  await deleteInvitation(trx, phoneNumber)
  return roles
}

interface MembershipStep {
  userId: number
  phoneNumber: string
  instituteId: number
  now: number
  asLearner?: boolean
}

/**
 * The account's roles in the institute it signs in on, checked after its credentials (docs/decisions/096). With no
 * membership: an invitation becomes one; `join` makes a learner's where registration is open; else 403
 * `not_a_member`. A membership an admin ended is no membership, and cannot be joined again but by the admin.
 */
export async function admitToInstitute(trx: Kysely<DB>, step: MembershipStep & { join: boolean }): Promise<Roles> {
  const current = await findMembership(trx, step.userId, step.instituteId)
  if (hasAnyRole(current)) return current
  const invited = await redeemInvitation(trx, { ...step, asLearner: step.join })
  if (invited) return invited
  const open = current === undefined && (await findOpenRegistration(trx, step.instituteId))
  if (!step.join) throw notAMember(open)
  if (!open) throw registrationClosed()
  const roles = withRole(undefined, 'learner')
  await saveMembership(trx, { userId: step.userId, instituteId: step.instituteId, roles, now: step.now })
  return roles
}

/** Whether a phone may register on the institute: open registration, or an invitation waiting for it. */
export async function mayRegister(db: Kysely<DB>, instituteId: number, phoneNumber: string): Promise<boolean> {
  return (await findOpenRegistration(db, instituteId)) || (await findInvitation(db, phoneNumber)) !== undefined
}

// What other features use of memberships, through this service (import boundaries, decision 012).
export {
  findMembership,
  hasAnyRole,
  insertLearnerMemberships,
  listInstituteSlugs,
  saveMembership,
  withRole,
  type Roles,
} from './members.repository'
