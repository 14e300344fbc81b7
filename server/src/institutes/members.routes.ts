import {
  AddMembersRequestSchema,
  AddMembersResponseSchema,
  MemberPageSchema,
  MemberParamsSchema,
  MemberRolesPatchSchema,
  MemberSchema,
  MembersQuerySchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actorOf } from '../audit/audit-log'
import type { MembersService } from './members.service'

/** `/api/admin/members/`: the members of the request's institute, for its admins (API.md "Institutes"). */
export const memberRoutes: FastifyPluginAsyncZod<{ members: MembersService }> = async (app, { members }) => {
  app.addHook('preHandler', app.requireAdmin)
  const docs = { tags: ['admin'], security: [{ bearer: [] }] }

  app.get(
    '/',
    { schema: { ...docs, querystring: MembersQuerySchema, response: { 200: MemberPageSchema } } },
    (request) => members.list(request.institute.id, request.query),
  )

  app.post(
    '/',
    { schema: { ...docs, body: AddMembersRequestSchema, response: { 200: AddMembersResponseSchema } } },
    (request) => members.add(request.institute.id, request.body, actorOf(request)),
  )

  app.patch(
    '/:user_id/',
    { schema: { ...docs, params: MemberParamsSchema, body: MemberRolesPatchSchema, response: { 200: MemberSchema } } },
    (request) => members.setRoles(request.institute.id, request.params.user_id, request.body.roles, actorOf(request)),
  )

  app.delete('/:user_id/', { schema: { ...docs, params: MemberParamsSchema } }, async (request, reply) => {
    await members.end(request.institute.id, request.params.user_id, actorOf(request))
    return reply.status(204).send()
  })
}
