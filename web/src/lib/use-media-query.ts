import { useSyncExternalStore } from 'react'

/** Whether a CSS media query matches now, following its changes; false where there is no matchMedia (prerender). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      if (typeof window === 'undefined' || !window.matchMedia) return () => undefined
      const list = window.matchMedia(query)
      list.addEventListener('change', changed)
      return () => list.removeEventListener('change', changed)
    },
    () => (typeof window !== 'undefined' && window.matchMedia ? window.matchMedia(query).matches : false),
    () => false,
  )
}

/** A phone's width, where the exam screen folds its navigation and palette away (quiz.css uses the same width). */
export const PHONE_QUERY = '(max-width: 640px)'
