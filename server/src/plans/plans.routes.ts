import { IdParamsSchema, PlanInputSchema, PlanListSchema, PlanPatchSchema, PlanSchema } from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actorOf } from '../audit/audit-log'
import type { PlanService } from './plans.service'

export const planRoutes: FastifyPluginAsyncZod<{ plans: PlanService }> = async (app, { plans }) => {
  app.addHook('onRequest', app.authenticate)
  app.get('/', { schema: { tags: ['payments'], security: [{ bearer: [] }], response: { 200: PlanListSchema } } }, () =>
    plans.listActivePlans(),
  )
}

const docs = { tags: ['admin'], security: [{ bearer: [] }] }

// A plan is never deleted (payments name it): it is made inactive.
export const adminPlanRoutes: FastifyPluginAsyncZod<{ plans: PlanService }> = async (app, { plans }) => {
  app.addHook('onRequest', app.requireAdmin)

  app.get('/', { schema: { ...docs, response: { 200: PlanListSchema } } }, () => plans.listAllPlans())

  app.post('/', { schema: { ...docs, body: PlanInputSchema, response: { 201: PlanSchema } } }, async (request, reply) =>
    reply.code(201).send(await plans.createPlan(request.body, actorOf(request))),
  )

  app.patch(
    '/:id/',
    { schema: { ...docs, params: IdParamsSchema, body: PlanPatchSchema, response: { 200: PlanSchema } } },
    (request) => plans.updatePlan(request.params.id, request.body, actorOf(request)),
  )
}
