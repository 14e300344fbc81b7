import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { PLATFORM_INSTITUTE_ID } from './db/tenancy'
import { registerWebApp } from './http/web-app'
import multipart from '@fastify/multipart'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import Fastify, { type FastifyRequest, type FastifyServerOptions } from 'fastify'
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod'
import { bankRoutes } from './admin/bank.routes'
import { passageRoutes } from './admin/passages.routes'
import { platformBankRoutes } from './admin/platform-bank.routes'
import { rubricRoutes } from './written/written.routes'
import { answeringRoutes } from './written/answering.routes'
import { markingRoutes } from './written/marking.routes'
import { regradeQueueRoutes, regradeRequestRoutes } from './written/regrades.routes'
import { adminRoutes } from './admin/admin.routes'
import { auditLogRoutes } from './admin/audit-log.routes'
import { attemptsRoutes } from './attempts/attempts.routes'
import { createFromJsonRoutes } from './admin/create-from-json.routes'
import { authRoutes } from './auth/auth.routes'
import type { AppContext } from './context'
import { healthRoutes } from './health/health.routes'
import { liveRoutes } from './live/live.routes'
import { legacyFontToolRoutes } from './imports/legacy-font/legacy-font.routes'
import { authenticationPlugin } from './http/authenticate'
import { importsRoutes } from './imports/imports.routes'
import { registerCompression } from './http/compression'
import { registerDraining } from './http/draining'
import { registerUploadTurns } from './http/upload-turns'
import { registerErrorHandlers } from './http/errors'
import { registerOverloadShedding } from './http/overload'
import { lazyChildLoggers } from './http/request-logger'
import { registerSecurityHeaders } from './http/security-headers'
import { createSerializerCompiler } from './http/serializer'
import { validatorRefusingNul } from './http/validator'
import { createMetrics } from './lib/metrics'
import { createFileStore, type FileStore } from './files'
import { metricsRoutes } from './metrics/metrics.routes'
import { notificationRoutes, pushRoutes } from './notifications/notifications.routes'
import { institutionRoutes } from './institutions/institutions.routes'
import { flagRoutes, keyDecisionRoutes } from './challenges/challenges.routes'
import { adminPaymentRoutes, paymentRoutes } from './payments/payments.routes'
import { adminPlanRoutes, planRoutes } from './plans/plans.routes'
import { quizzesRoutes } from './quizzes/quizzes.routes'
import { pictureRoutes } from './pictures/pictures.routes'
import { inRequestScope, type RequestScope } from './db/request-scope'
import { instituteRoutes, registerInstituteOfRequest } from './institutes/institutes.routes'
import { memberRoutes } from './institutes/members.routes'
import { instituteSettingsRoutes } from './institutes/settings.routes'
import { actingTokenFor } from './platform/acting'
import { platformRoutes } from './platform/platform.routes'
import { registerNationalCopyGuard } from './national/national-copy-guard'
import { adminNationalRoutes, nationalRoutes, platformNationalRoutes } from './national/national.routes'
import { createServices, type Services } from './services'
import { practiceRoutes } from './practice/practice.routes'
import { adminDailyRoutes, dailyRoutes } from './daily/daily.routes'
import { resultsRoutes } from './results/results.routes'
import { learnerSheetRoutes, sittingRoutes } from './sittings/sittings.routes'
import { usersRoutes } from './users/users.routes'

export const MB = 1024 * 1024

const redact = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.password2',
  '*.otp',
  '*.code',
  '*.access',
  '*.refresh',
  '*.token',
  // Payment secrets never travel in requests, but a provider's answer or a form could echo them.
  '*.secretKey',
  '*.secret_key',
  '*.signature',
]

// Pino's `redact` cannot hide the payment routes' query strings (eSewa's `data`, Khalti's pidx): they are in `req.url`.
function serializeRequest(request: FastifyRequest) {
  const query = request.url.indexOf('?')
  const url =
    query >= 0 && request.url.startsWith('/api/payments/') ? `${request.url.slice(0, query)}?[redacted]` : request.url
  return {
    method: request.method,
    url,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }
}

const hopsTrusted = (hops: number) => (_address: string, hop: number) => hop < hops

export interface BuildOptions {
  logger?: FastifyServerOptions['logger']
  /** For tests: replaces services before the routes get them (a service built on another keeps its own). */
  services?: (built: Services) => Partial<Services>
  /** The database scope of each request (db/request-scope.ts); none entered without one (docs/decisions/076). */
  requestScope?: (request: FastifyRequest) => RequestScope
}

export async function buildApp(
  deps: Omit<AppContext, 'metrics' | 'files'> & { files?: FileStore },
  { logger, services: override, requestScope }: BuildOptions = {},
) {
  const metrics = createMetrics(() => deps.database.poolStats(), { served: deps.config.metricsToken !== undefined })
  const context: AppContext = { ...deps, metrics, files: deps.files ?? createFileStore(deps.config) }
  const app = createFastify(context, logger)

  const built = createServices(context, app.log)
  const services: Services = { ...built, ...override?.(built) }

  app.setValidatorCompiler(validatorRefusingNul)
  app.setSerializerCompiler(createSerializerCompiler({ check: context.config.env === 'test' }))
  registerErrorHandlers(app)
  registerDraining(app)
  registerUploadTurns(app)
  await registerOverloadShedding(app, context.config.overload)

  registerSecurityHeaders(app, {
    // eSewa's checkout is a form POST from our page: CSP form-action must admit exactly its origin.
    formActions: context.config.payments.providers.includes('esewa')
      ? [new URL(context.config.payments.esewa.formUrl).origin]
      : [],
    scriptHashes: webAppScriptHashes(context.config.webDist),
  })
  await registerCompression(app)
  if (context.config.apiDocs) {
    await app.register(swagger, {
      openapi: {
        info: { title: 'Quiz platform API', version: '1.0.0', description: 'The contract of API.md.' },
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      },
      transform: jsonSchemaTransform,
    })
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true })
  }
  registerInstituteOfRequest(app, services.institutes, actingTokenFor(context.tokens))
  await app.register(authenticationPlugin, {
    tokens: context.tokens,
    database: context.database,
    clock: context.clock,
  })

  // With one institute nothing is scoped unless a test asks: an AsyncLocalStorage costs every promise (decision 076).
  // PostgreSQL's row security shows a session set to no institute nothing, so there each request names its own (098).
  const rowSecurity = context.database.dialect === 'postgres'
  const enterScope = (request: FastifyRequest, _reply: unknown, done: () => void) => {
    const institute = request.institute?.scoped ? request.institute.id : undefined
    const sessionInstitute = rowSecurity ? request.institute?.id : undefined
    if (institute === undefined && sessionInstitute === undefined && !requestScope) return done()
    const scope = requestScope?.(request) ?? { requestId: request.id }
    inRequestScope({ ...scope, institute, sessionInstitute }, done)
  }
  // From preValidation, after the body is read (its stream's events run outside any scope): the question routes
  // store their pictures there (admin/image-fields.ts), and unscoped they were the first institute's (decision 100).
  app.addHook('preValidation', enterScope)
  app.addHook('preHandler', enterScope)

  const { metricsToken } = context.config
  if (metricsToken) {
    app.addHook('onResponse', async (request, reply) =>
      context.metrics.observeRequest(
        request.method,
        request.routeOptions.url ?? 'unmatched',
        reply.statusCode,
        reply.elapsedTime / 1000,
      ),
    )
    await app.register(metricsRoutes, { prefix: '/api/metrics', metrics: context.metrics, token: metricsToken })
  }
  registerNationalCopyGuard(app, context)
  await registerFeatureRoutes(app, services, context)
  const { attempts, jobs } = services

  // Pictures stored before 0021 take their keyed names; an unreachable database must not stop the start (503).
  app.addHook('onReady', async () => {
    try {
      const renamed = await services.pictures.nameUnkeyed()
      if (renamed > 0) app.log.info({ renamed }, 'pictures: named with the server key')
    } catch (error) {
      app.log.warn({ err: error }, 'pictures: naming with the server key failed; the sweep tries again')
    }
  })
  // Each job is stopped, its sends awaited, and the shown questions held here written, before the database closes.
  for (const job of [
    jobs.deliveries,
    jobs.announcements,
    jobs.mockEnds,
    jobs.pictureSweep,
    jobs.fileSweep,
    jobs.owedCards,
    jobs.daily,
  ]) {
    app.addHook('onReady', async () => job.start())
    app.addHook('onClose', async () => job.stop())
  }
  app.addHook('onClose', async () => attempts.shows.flush())

  registerWebApp(app, context.config.webDist, (request) =>
    request.institute.id === PLATFORM_INSTITUTE_ID
      ? Promise.resolve(null)
      : services.institutes.branding(request.institute.id),
  )
  return app
}

export type App = Awaited<ReturnType<typeof buildApp>>

function createFastify(context: AppContext, logger: BuildOptions['logger']) {
  return Fastify({
    // A logger given by a test keeps the request serializer: the payment queries stay out of every log.
    logger:
      logger === undefined
        ? { level: context.config.logLevel, redact, serializers: { req: serializeRequest } }
        : typeof logger === 'object'
          ? { serializers: { req: serializeRequest }, ...logger }
          : logger,
    ...(logger !== false && { childLoggerFactory: lazyChildLoggers }),
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: MB,
    trustProxy:
      typeof context.config.trustProxy === 'number'
        ? hopsTrusted(context.config.trustProxy)
        : context.config.trustProxy,
    // Body and path parameters are validated by zod; keep Fastify from coercing anything on its own.
    ajv: { customOptions: { coerceTypes: false } },
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>()
}

type AppInstance = ReturnType<typeof createFastify>

/** Every feature's routes, each given the services it uses. */
async function registerFeatureRoutes(app: AppInstance, services: Services, context: AppContext) {
  const { rateLimits, auth, users, attempts, admin, challenges, institutions } = services
  await app.register(healthRoutes, { prefix: '/api/health', health: services.health })
  await app.register(instituteRoutes, { prefix: '/api/institute', institutes: services.institutes })
  await app.register(instituteSettingsRoutes, {
    prefix: '/api/admin/institute/settings',
    settings: services.instituteSettings,
  })
  await app.register(platformRoutes, {
    prefix: '/api/platform',
    ...services.platform,
    platform: services.platform.institutes,
  })
  await app.register(platformNationalRoutes, { prefix: '/api/platform/national-mocks', national: services.national })
  await app.register(adminNationalRoutes, { prefix: '/api/admin/national-mocks', national: services.national })
  await app.register(nationalRoutes, { prefix: '/api/national-mocks', national: services.national })
  await app.register(authRoutes, { prefix: '/api', auth: auth.logins, otp: auth.otp })
  await app.register(memberRoutes, { prefix: '/api/admin/members', members: services.members })
  await app.register(pictureRoutes, { prefix: '/api/pictures', pictures: services.pictures })
  await app.register(quizzesRoutes, { prefix: '/api/quizzes', quizzes: services.quizzes })
  await app.register(attemptsRoutes, { prefix: '/api/quizzes', session: attempts.session, submit: attempts.submit })
  await app.register(liveRoutes, { prefix: '/api/quizzes', live: services.live, livePapers: services.livePapers })
  await app.register(resultsRoutes, { prefix: '/api/results', results: services.results })
  await app.register(practiceRoutes, {
    prefix: '/api/practice',
    practice: services.practice,
    lifecycle: attempts.lifecycle,
  })
  await app.register(dailyRoutes, { prefix: '/api/daily', daily: services.daily, lifecycle: attempts.lifecycle })
  await app.register(adminDailyRoutes, { prefix: '/api/admin/daily-set', daily: services.daily })
  await app.register(adminRoutes, {
    prefix: '/api/admin',
    admin: admin.quizzes,
    drafts: admin.drafts,
    pictures: services.pictures,
  })
  await app.register(bankRoutes, { prefix: '/api/admin/bank', bank: admin.bank, pictures: services.pictures })
  await app.register(passageRoutes, {
    prefix: '/api/admin/bank/passages',
    passages: admin.passages,
    pictures: services.pictures,
  })
  // The platform's bank (docs/decisions/101): written by platform admins, read and copied by institutes' admins.
  await app.register(bankRoutes, {
    prefix: '/api/platform/bank',
    bank: admin.bank,
    pictures: services.pictures,
    platform: true,
  })
  await app.register(platformBankRoutes, { prefix: '/api/admin', platformBank: admin.platformBank })
  await app.register(rubricRoutes, { prefix: '/api/admin/bank', rubrics: services.written.rubrics })
  await app.register(markingRoutes, { prefix: '/api/admin', marking: services.written.marking })
  await app.register(regradeQueueRoutes, { prefix: '/api/admin', regrades: services.written.regrades })
  await app.register(regradeRequestRoutes, { prefix: '/api/results', regrades: services.written.regrades })
  // Multipart only where a route reads one: its hooks cost every other request (docs/decisions/076).
  await app.register(async (uploads) => {
    await uploads.register(multipart, { limits: { fileSize: 5 * MB, files: 1, fields: 20, fieldSize: 64 * 1024 } })
    await uploads.register(usersRoutes, {
      prefix: '/api/users',
      users: users.accounts,
      profiles: users.profiles,
      otp: auth.otp,
      members: services.members,
    })
    await uploads.register(importsRoutes, { prefix: '/api/admin', imports: services.imports })
    await uploads.register(sittingRoutes, { prefix: '/api/admin', ...services.sittings })
    await uploads.register(answeringRoutes, { prefix: '/api', answering: services.writtenAnswers })
  })
  await app.register(learnerSheetRoutes, { prefix: '/api/results', scans: services.sittings.scans })
  await app.register(institutionRoutes, { prefix: '/api/admin', ...institutions })
  await app.register(auditLogRoutes, { prefix: '/api/admin/audit', auditLog: admin.auditLog })
  await app.register(legacyFontToolRoutes, { prefix: '/api/admin/tools/legacy-font' })
  await app.register(flagRoutes, { prefix: '/api/results', flags: challenges.flags })
  await app.register(keyDecisionRoutes, {
    prefix: '/api/admin',
    queue: challenges.queue,
    decisions: challenges.decisions,
  })
  await app.register(createFromJsonRoutes, {
    prefix: '/api/quizzes',
    admin: admin.quizzes,
    pictures: services.pictures,
  })
  await app.register(planRoutes, { prefix: '/api/plans', plans: services.plans })
  await app.register(adminPlanRoutes, { prefix: '/api/admin/plans', plans: services.plans })
  await app.register(paymentRoutes, {
    prefix: '/api/payments',
    payments: services.payments,
    rateLimits,
    settings: context.config.payments,
  })
  await app.register(adminPaymentRoutes, { prefix: '/api/admin/payments', payments: services.payments })
  await app.register(notificationRoutes, { prefix: '/api/notifications', notifications: services.notifications })
  await app.register(pushRoutes, { prefix: '/api/push', notifications: services.notifications, rateLimits })
}

// The visitor screens' inline scripts (decision 025), read from the build: the policy admits exactly what was built.
function webAppScriptHashes(webDist: string): string[] {
  if (!existsSync(webDist)) return []
  const hashes = new Set<string>()
  for (const file of readdirSync(webDist).filter((name) => name.endsWith('.html')))
    for (const [, script] of readFileSync(path.join(webDist, file), 'utf8').matchAll(/<script>([^<]*)<\/script>/g))
      hashes.add(`sha256-${createHash('sha256').update(script!).digest('base64')}`)
  return [...hashes]
}
