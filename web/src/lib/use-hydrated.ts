import { useSyncExternalStore } from 'react'

const subscribe = () => () => {}

/**
 * False in the HTML the build renders and while React hydrates it, true once React handles the page (at once when
 * the page renders on the client). A built form's submit button waits for it: pressed before hydration, the
 * browser would submit the form itself, with the password in the address.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  )
}
