import type { FastifyRequest } from 'fastify'

export interface LoginClient {
  address: string
  userAgent: string | undefined
  /** The slug of the institute of the request's host: the one its tokens are for. */
  institute: string
  /** Its id: the institute whose membership the login needs (docs/decisions/096); 0 on the platform's own address. */
  instituteId: number
  /** The request came to the platform's own address (docs/decisions/097). */
  platform?: boolean
}

export const loginClientOf = (request: FastifyRequest): LoginClient => ({
  address: request.ip,
  userAgent: request.headers['user-agent'],
  institute: request.institute.slug,
  instituteId: request.institute.id,
  platform: request.platform,
})
