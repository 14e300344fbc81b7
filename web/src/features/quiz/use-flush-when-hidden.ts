import { useEffect } from 'react'

/** A page going out of sight sends what its queue holds at once: phones kill background tabs. */
export function useFlushWhenHidden(queue: { flush: () => Promise<void> } | null) {
  useEffect(() => {
    if (!queue) return
    const onHidden = () => {
      if (document.visibilityState === 'hidden') void queue.flush()
    }
    document.addEventListener('visibilitychange', onHidden)
    return () => document.removeEventListener('visibilitychange', onHidden)
  }, [queue])
}
