import type { FastifyRequest } from 'fastify'

/** Where a login is made or used from: the client address (TRUST_PROXY decides which) and its User-Agent. */
export interface LoginClient {
  address: string
  userAgent: string | undefined
}

export const loginClientOf = (request: FastifyRequest): LoginClient => ({
  address: request.ip,
  userAgent: request.headers['user-agent'],
})
