import type { RequestInstitute } from './request-institute'

/**
 * What a platform admin's own token names as its institute (docs/decisions/097): no slug can be it (slugs are
 * a-z, 0-9 and -), so the token is no institute's on any institute's host.
 */
export const PLATFORM_SCOPE = '~platform'

/**
 * `request.institute` on the platform's own address while the deployment has several institutes: no institute's.
 * Unscoped, because the platform's routes read across institutes; every other route is 404 there (institutes.routes).
 */
export const PLATFORM_REQUEST_INSTITUTE: RequestInstitute = Object.freeze({
  id: 0,
  slug: PLATFORM_SCOPE,
  scoped: false,
})

/** What answers on the platform's own address with several institutes: its routes and signing in. */
export const PLATFORM_ADDRESS_PATHS = /^\/api\/(platform|token)(\/|\?|$)/
