import { useEffect } from 'react'
import { useBlocker } from 'react-router'

/**
 * While the exam is in progress, leaving asks first: a route change is blocked until the learner decides (the
 * page shows its own dialog for the returned blocker), and closing or reloading the tab gets the browser's prompt.
 */
export function useLeaveWarning(inProgress: boolean) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => inProgress && currentLocation.pathname !== nextLocation.pathname,
  )

  useEffect(() => {
    if (!inProgress) return
    // Browsers show their own prompt and ignore custom text.
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault()
      event.returnValue = ''
    }
    window.addEventListener('beforeunload', onBeforeUnload)
    return () => window.removeEventListener('beforeunload', onBeforeUnload)
  }, [inProgress])

  return blocker
}
