import type { FastifyRequest } from 'fastify'
import type { TokenSigner } from '../http/tokens'

/**
 * Whether a request to a suspended institute carries an act-as token of it (API.md: suspended is 403 "for everyone
 * but platform admins", and act-as tokens are how they reach an institute; docs/decisions/097). Whether its user is
 * still a platform admin is re-read by requireAdmin, as for every admin route.
 */
export const actingTokenFor = (tokens: TokenSigner) => async (request: FastifyRequest, slug: string) => {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')
  if (!bearer) return false
  const claims = await tokens.verifyAccess(bearer[1]!)
  return claims?.acting === true && claims.institute === slug
}
