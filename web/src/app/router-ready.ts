import type { AppRouter } from './app'

/**
 * Resolves once the router has loaded the first route's lazy code. Until then it renders nothing, so hydrating the
 * build's HTML before this would not match it, and rendering it in the build would give an empty page.
 */
export function routerReady(router: AppRouter): Promise<void> {
  if (router.state.initialized) return Promise.resolve()
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return
      unsubscribe()
      resolve()
    })
  })
}
