import { onlineManager } from '@tanstack/react-query'
import { useEffect, useSyncExternalStore } from 'react'

const subscribe = (listener: () => void) => onlineManager.subscribe(listener)
const isOnline = () => onlineManager.isOnline()

/**
 * Whether the device is online, as TanStack Query sees it: the same answer pauses the submission, the answer queue
 * and the banner. The onlineManager assumes a connection until it hears an `offline` event, and a page opened
 * offline (a reload in the exam) has heard none: it is told what the browser says when the exam opens.
 */
export function useOnline() {
  useEffect(() => {
    onlineManager.setOnline(navigator.onLine)
  }, [])
  return useSyncExternalStore(subscribe, isOnline, () => true)
}
