import type { FastifyRequest } from 'fastify'

export interface LoginClient {
  address: string
  userAgent: string | undefined
}

export const loginClientOf = (request: FastifyRequest): LoginClient => ({
  address: request.ip,
  userAgent: request.headers['user-agent'],
})
