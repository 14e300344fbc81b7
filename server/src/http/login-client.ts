import type { FastifyRequest } from 'fastify'

export interface LoginClient {
  address: string
  userAgent: string | undefined
  /** The slug of the institute of the request's host: the one its tokens are for. */
  institute: string
  /** Its id: the institute whose membership the login needs (docs/decisions/096). */
  instituteId: number
}

export const loginClientOf = (request: FastifyRequest): LoginClient => ({
  address: request.ip,
  userAgent: request.headers['user-agent'],
  institute: request.institute.slug,
  instituteId: request.institute.id,
})
