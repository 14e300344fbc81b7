import { InstituteBrandingSchema } from '@quiz/contracts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { NotFound, PermissionDenied } from '../http/errors'
import type { RequestInstitute } from '../http/request-institute'
import { PLATFORM_ADDRESS_PATHS, PLATFORM_REQUEST_INSTITUTE } from '../http/platform-address'
import { STALE, type HostMatch, type InstitutesService } from './institutes.service'

type HookDone = (error?: Error) => void

export const instituteRoutes: FastifyPluginAsyncZod<{ institutes: InstitutesService }> = async (
  app,
  { institutes },
) => {
  app.get('/', { schema: { tags: ['institutes'], response: { 200: InstituteBrandingSchema } } }, async (request) =>
    institutes.branding(request.institute.id),
  )
}

/** Paths that answer for the deployment on any host: load balancers and operators know no institute's address. */
const DEPLOYMENT_PATHS = /^\/api\/(health|metrics|docs)(\/|\?|$)/

const NO_INSTITUTE_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport"
content="width=device-width,initial-scale=1"><title>No institute here</title></head><body style="font-family:sans-serif;
margin:2rem"><h1>No institute here</h1><p>There is no institute at this address. Check the address your institute
gave you.</p><p lang="ne">यस ठेगानामा कुनै संस्था छैन। तपाईंको संस्थाले दिएको ठेगाना जाँच्नुहोस्।</p></body></html>`

/** Whether a request may pass a suspended institute's door: a platform admin acting as its admin (decision 097). */
export type SuspendedEntry = (request: FastifyRequest, slug: string) => Promise<boolean>

/**
 * Finds each request's institute from its host before anything else (API.md "Institutes"): an unknown host is 404
 * `institute_not_found` on /api and a plain page for the app; a suspended institute is 403 `institute_suspended`.
 */
export function registerInstituteOfRequest(
  app: FastifyInstance,
  institutes: InstitutesService,
  mayEnterSuspended: SuspendedEntry = async () => false,
) {
  app.decorateRequest('institute', null as unknown as RequestInstitute)
  app.decorateRequest('platform', false)
  const notFound = () => new NotFound('There is no institute at this address.', 'institute_not_found')
  function settle(request: FastifyRequest, reply: FastifyReply, match: HostMatch | undefined, done: HookDone) {
    const api = request.url.startsWith('/api')
    if (!match) {
      if (api) return done(notFound())
      reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(NO_INSTITUTE_PAGE)
      return
    }
    request.platform = match.platform
    if (match.institute === null) {
      // The platform's own address with several institutes: its routes and signing in, nothing of an institute's.
      if (api && !PLATFORM_ADDRESS_PATHS.test(request.url)) return done(notFound())
      request.institute = PLATFORM_REQUEST_INSTITUTE
      return done()
    }
    const institute = { id: match.institute.id, slug: match.institute.slug, scoped: !match.alone }
    // A lone institute's hosts are the platform's address too: its suspension must not shut the platform out.
    const platformRoute = match.platform && PLATFORM_ADDRESS_PATHS.test(request.url)
    if (match.institute.status === 'suspended' && api && !platformRoute) {
      const refused = () => new PermissionDenied('This institute is suspended.', 'institute_suspended')
      mayEnterSuspended(request, institute.slug).then((may) => {
        if (!may) return done(refused())
        request.institute = institute
        done()
      }, done)
      return
    }
    request.institute = institute
    done()
  }
  // A callback hook, answered from memory while the host table is fresh: no promise on the hot requests.
  app.addHook('onRequest', (request, reply, done) => {
    if (DEPLOYMENT_PATHS.test(request.url)) return done()
    const atOnce = institutes.resolveAtOnce(request.host)
    if (atOnce !== STALE) return settle(request, reply, atOnce, done)
    institutes.resolve(request.host).then((match) => settle(request, reply, match, done), done)
  })
}
