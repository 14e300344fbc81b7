import type { FastifyRequest } from 'fastify'

// TRUST_PROXY decides which client address.
export interface LoginClient {
  address: string
  userAgent: string | undefined
}

export const loginClientOf = (request: FastifyRequest): LoginClient => ({
  address: request.ip,
  userAgent: request.headers['user-agent'],
})
