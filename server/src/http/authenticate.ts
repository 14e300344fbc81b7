import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { TokenSigner, TokenUser } from './tokens'
import type { Database } from '../db/database'
import type { Clock } from '../lib/clock'
import { FIRST_INSTITUTE_SLUG } from '../db/tenancy'
import { PLATFORM_SCOPE } from './platform-address'
import { findAdminFlag, findPlatformAdminFlag, isLoginLive } from './authenticate.repository'
import './request-institute'
import { NotAuthenticated, NotFound, PermissionDenied } from './errors'

declare module 'fastify' {
  interface FastifyRequest {
    user: TokenUser
  }
  interface FastifyInstance {
    authenticate: (request: FastifyRequest) => Promise<void>
    requireAdmin: (request: FastifyRequest) => Promise<void>
    requireMarker: (request: FastifyRequest) => Promise<void>
    requirePlatformAdmin: (request: FastifyRequest) => Promise<void>
    authenticateLiveLogin: (request: FastifyRequest) => Promise<void>
  }
}

export const authenticationPlugin = fp(
  async (
    app: FastifyInstance,
    { tokens, database, clock }: { tokens: TokenSigner; database: Database; clock: Clock },
  ) => {
    app.decorateRequest('user', null as unknown as TokenUser)

    async function bearerClaims(request: FastifyRequest) {
      const header = request.headers.authorization
      const match = header?.match(/^Bearer\s+(\S+)$/i)
      if (!match) throw new NotAuthenticated('Authentication credentials were not provided.')
      const claims = await tokens.verifyAccess(match[1]!)
      if (!claims) throw new NotAuthenticated('The access token is invalid or expired.')
      return claims
    }

    function setUser(request: FastifyRequest, claims: Awaited<ReturnType<typeof bearerClaims>>) {
      request.user = {
        id: claims.user_id,
        username: claims.username,
        is_admin: claims.is_admin === true,
        is_marker: claims.is_marker === true,
        ...(typeof claims.sid === 'string' && { sessionId: claims.sid }),
        ...(claims.acting === true && { acting: true }),
      }
    }

    async function authenticate(request: FastifyRequest) {
      const claims = await bearerClaims(request)
      // A token is for one institute: on another's host it is no token (API.md "Institutes").
      if ((claims.institute ?? FIRST_INSTITUTE_SLUG) !== request.institute.slug)
        throw new NotAuthenticated('This token is for another institute.')
      setUser(request, claims)
    }

    async function platformAdminFlag(request: FastifyRequest) {
      const row = await findPlatformAdminFlag(database.db, request.user.id)
      if (!row) throw new NotAuthenticated('The user of this token no longer exists.')
      return row.is_platform_admin === 1
    }

    // docs/decisions/097: the platform's routes are not there on an institute's host; a platform admin's own token,
    // or, while one institute is every host, that institute's token of a platform admin; never an act-as token.
    async function requirePlatformAdmin(request: FastifyRequest) {
      if (!request.platform) throw new NotFound()
      const claims = await bearerClaims(request)
      const institute = claims.institute ?? FIRST_INSTITUTE_SLUG
      if (institute !== PLATFORM_SCOPE && institute !== request.institute.slug)
        throw new NotAuthenticated('This token is for another institute.')
      setUser(request, claims)
      if (claims.acting === true || claims.is_platform_admin !== true) throw new PermissionDenied()
      if (!(await platformAdminFlag(request))) throw new PermissionDenied()
    }

    // Access tokens live 15 minutes and cannot be revoked: re-read, so a demoted admin loses access at once. The
    // roles are the account's in the request's institute (docs/decisions/096); no membership there is no role.
    // An act-as token (decision 097) holds while its user is still a platform admin.
    async function rolesOf(request: FastifyRequest) {
      if (request.user.acting) {
        if (!(await platformAdminFlag(request))) throw new PermissionDenied()
        return 'acting' as const
      }
      const row = await findAdminFlag(database.db, request.user.id, request.institute.id)
      if (!row) await platformAdminFlag(request) // 401 when the account is gone
      return row ?? { is_admin: 0, is_marker: 0 }
    }

    async function requireAdmin(request: FastifyRequest) {
      await authenticate(request)
      const row = await rolesOf(request)
      if (row === 'acting') return
      if (row.is_admin !== 1) throw new PermissionDenied()
    }

    async function requireMarker(request: FastifyRequest) {
      await authenticate(request)
      const row = await rolesOf(request)
      if (row === 'acting') return
      if (row.is_admin !== 1 && row.is_marker !== 1) throw new PermissionDenied()
      request.user = { ...request.user, is_admin: row.is_admin === 1, is_marker: row.is_marker === 1 }
    }

    // A thief's copy of a logged-out token (15 minutes) must not see or end logins or change the password (decision 023).
    async function authenticateLiveLogin(request: FastifyRequest) {
      await authenticate(request)
      const { sessionId } = request.user
      if (sessionId === undefined) return
      if (!(await isLoginLive(database.db, request.user.id, sessionId, clock.now())))
        throw new NotAuthenticated('This login has been logged out.')
    }

    app.decorate('authenticate', authenticate)
    app.decorate('requireAdmin', requireAdmin)
    app.decorate('requireMarker', requireMarker)
    app.decorate('requirePlatformAdmin', requirePlatformAdmin)
    app.decorate('authenticateLiveLogin', authenticateLiveLogin)
  },
  { name: 'authentication' },
)
