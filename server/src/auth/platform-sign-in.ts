import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { AppError } from '../http/errors'
import type { LoginClient } from '../http/login-client'
import { PLATFORM_SCOPE } from '../http/platform-address'
import { findMembership } from './platform-sign-in.repository'

/**
 * Whose sign-in a password login on the platform's address is (API.md "Platform admins", docs/decisions/097), asked
 * by auth.service after the credentials were checked: `platform` signs a platform token (institute `~platform`, no
 * institute's admin), `institute` goes on as a sign-in to the request's institute. With several institutes the
 * platform's address is no institute's and only platform admins sign in there: anyone else is 403 `not_a_member`
 * (`can_join` false: no one joins the platform). While one institute is every host, a platform admin who is not a
 * member of it signs in to the platform; one who is signs in to the institute, the token saying is_platform_admin.
 */
export async function platformSignIn(
  db: Kysely<DB>,
  user: { id: number; is_platform_admin: number },
  client: LoginClient,
): Promise<'platform' | 'institute'> {
  if (!client.platform) return 'institute'
  const platformAdmin = user.is_platform_admin === 1
  if (client.institute === PLATFORM_SCOPE) {
    if (platformAdmin) return 'platform'
    throw new AppError(
      403,
      'not_a_member',
      "This is the platform's address: only platform admins sign in here. Sign in at your institute's address.",
      undefined,
      undefined,
      { can_join: false },
    )
  }
  if (platformAdmin && client.instituteId !== undefined && !(await findMembership(db, user.id, client.instituteId)))
    return 'platform'
  return 'institute'
}

/** A platform token is no institute's admin or marker: its user reaches /api/platform/* alone. */
export const asPlatformUser = <T extends { is_admin: number; is_marker: number }>(user: T): T => ({
  ...user,
  is_admin: 0,
  is_marker: 0,
})

/** The institute a refreshed pair is for: a platform token stays one on the platform's address. */
export const refreshedFor = (claimed: string | undefined, client: LoginClient) =>
  claimed === PLATFORM_SCOPE && client.platform ? PLATFORM_SCOPE : client.institute
