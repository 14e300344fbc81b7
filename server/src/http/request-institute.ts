import type { FastifyRequest } from 'fastify'

/** The institute a request is for, found from its host before anything else runs (app.ts, docs/decisions/095). */
export interface RequestInstitute {
  id: number
  slug: string
  /** Whether every query of the request is held to this institute: the deployment has others. */
  scoped: boolean
}

declare module 'fastify' {
  interface FastifyRequest {
    institute: RequestInstitute
    /** The request came to the platform's own address (docs/decisions/097): every host while there is one institute. */
    platform: boolean
  }
}

export const instituteOf = (request: FastifyRequest) => request.institute
