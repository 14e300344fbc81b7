import { existsSync } from 'node:fs'
import path from 'node:path'
import multipart from '@fastify/multipart'
import fastifyStatic from '@fastify/static'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import Fastify, { type FastifyServerOptions } from 'fastify'
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod'
import { adminRoutes } from './admin/admin.routes'
import { auditLogRoutes } from './admin/audit-log.routes'
import { createFromJsonRoutes } from './admin/create-from-json.routes'
import { authRoutes } from './auth/auth.routes'
import type { AppContext } from './context'
import { healthRoutes } from './health/health.routes'
import { authenticationPlugin } from './http/authenticate'
import { registerErrorHandlers } from './http/errors'
import { registerSecurityHeaders } from './http/security-headers'
import { institutionRoutes } from './institutions/institutions.routes'
import { adminPaymentRoutes, paymentRoutes } from './payments/payments.routes'
import { adminPlanRoutes, planRoutes } from './plans/plans.routes'
import { quizzesRoutes } from './quizzes/quizzes.routes'
import { practiceRoutes } from './practice/practice.routes'
import { resultsRoutes } from './results/results.routes'
import { usersRoutes } from './users/users.routes'

export const MB = 1024 * 1024

/** Secrets never reach the logs: tokens, passwords and codes are redacted wherever pino would print them. */
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
  'req.query.data',
]

export async function buildApp(context: AppContext, { logger }: { logger?: FastifyServerOptions['logger'] } = {}) {
  const app = Fastify({
    logger: logger ?? { level: context.config.logLevel, redact },
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: MB,
    trustProxy: context.config.trustProxy,
    // Body and path parameters are validated by zod; keep Fastify from coercing anything on its own.
    ajv: { customOptions: { coerceTypes: false } },
  }).withTypeProvider<ZodTypeProvider>()

  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  registerErrorHandlers(app)

  registerSecurityHeaders(app, {
    // eSewa's checkout is a form POST from our page: CSP form-action must admit exactly its origin.
    formActions: context.config.payments.providers.includes('esewa')
      ? [new URL(context.config.payments.esewa.formUrl).origin]
      : [],
  })
  await app.register(multipart, { limits: { fileSize: 5 * MB, files: 1, fields: 20, fieldSize: 64 * 1024 } })
  await app.register(swagger, {
    openapi: {
      info: { title: 'Quiz platform API', version: '1.0.0', description: 'The contract of API.md.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  })
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true })
  await app.register(authenticationPlugin, { tokens: context.tokens, database: context.database })

  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store')
  })

  await app.register(healthRoutes, { prefix: '/api/health', ...context })
  await app.register(authRoutes, { prefix: '/api', ...context })
  await app.register(usersRoutes, { prefix: '/api/users', ...context })
  await app.register(quizzesRoutes, { prefix: '/api/quizzes', ...context })
  await app.register(resultsRoutes, { prefix: '/api/results', ...context })
  await app.register(practiceRoutes, { prefix: '/api/practice', ...context })
  await app.register(adminRoutes, { prefix: '/api/admin', ...context })
  await app.register(institutionRoutes, { prefix: '/api/admin', ...context })
  await app.register(auditLogRoutes, { prefix: '/api/admin/audit', ...context })
  await app.register(createFromJsonRoutes, { prefix: '/api/quizzes', ...context })
  await app.register(planRoutes, { prefix: '/api/plans', ...context })
  await app.register(adminPlanRoutes, { prefix: '/api/admin/plans', ...context })
  await app.register(paymentRoutes, { prefix: '/api/payments', ...context })
  await app.register(adminPaymentRoutes, { prefix: '/api/admin/payments', ...context })

  registerWebApp(app, context.config.webDist)
  return app
}

export type App = Awaited<ReturnType<typeof buildApp>>

/** Serves the built SPA; any other GET outside /api falls back to index.html so client routes survive a reload. */
function registerWebApp(app: App, webDist: string) {
  const index = path.join(webDist, 'index.html')
  if (!existsSync(index)) return
  app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    setHeaders(reply, filePath) {
      // Vite puts a content hash in every asset name: those never change. index.html must always be fresh.
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`)
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
    },
  })
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    if (request.url.startsWith('/api')) return reply.callNotFound()
    return reply.header('cache-control', 'no-cache').sendFile('index.html')
  })
}
