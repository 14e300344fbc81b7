import {
  DailyDayBodySchema,
  DailyDayParamsSchema,
  DailyDaySchema,
  DailyDaysQuerySchema,
  DailyDaysSchema,
  DailySettingsBodySchema,
  DailySettingsSchema,
  DailyTodaySchema,
  LeaderboardSchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { AttemptLifecycle } from '../attempts/attempts.service'
import type { DailyService } from './daily.service'

const tags = ['daily']
const security = [{ bearer: [] }]

/** `/api/daily/`: a learner's day and a day's leaderboard. */
export const dailyRoutes: FastifyPluginAsyncZod<{ daily: DailyService; lifecycle: AttemptLifecycle }> = async (
  app,
  { daily, lifecycle },
) => {
  app.addHook('onRequest', app.authenticate)

  app.get('/', { schema: { tags, security, response: { 200: DailyTodaySchema } } }, async (request) => {
    // An attempt whose time ran out counts once settled: settle first, so today's set shows as done.
    await lifecycle.settleExpired(request.user.id)
    return daily.today(request.user)
  })

  app.get(
    '/:date/leaderboard/',
    { schema: { tags, security, params: DailyDayParamsSchema, response: { 200: LeaderboardSchema } } },
    (request) => daily.leaderboard(request.user, request.params.date),
  )
}

/** `/api/admin/daily-set/`: the institute's settings, a day fixed by hand, and the days with their attempts. */
export const adminDailyRoutes: FastifyPluginAsyncZod<{ daily: DailyService }> = async (app, { daily }) => {
  app.addHook('onRequest', app.requireAdmin)

  app.get('/', { schema: { tags, security, response: { 200: DailySettingsSchema } } }, () => daily.getSettings())

  app.put(
    '/',
    { schema: { tags, security, body: DailySettingsBodySchema, response: { 200: DailySettingsSchema } } },
    (request) => daily.putSettings(request.body),
  )

  app.get(
    '/days/',
    { schema: { tags, security, querystring: DailyDaysQuerySchema, response: { 200: DailyDaysSchema } } },
    (request) => daily.listDays(request.query.from, request.query.to),
  )

  app.put(
    '/days/:date/',
    {
      schema: {
        tags,
        security,
        params: DailyDayParamsSchema,
        body: DailyDayBodySchema,
        response: { 200: DailyDaySchema },
      },
    },
    (request) => daily.fixDay(request.params.date, request.body.question_ids),
  )
}
