import { useRef } from 'react'
import { useSearchParams } from 'react-router'

/**
 * The question on screen, numbered from 1 and kept in the URL (`?q=`), so a reload shows the same one. `goTo`
 * replaces the entry (moving through the paper is not history); with `scroll` a question scrolled out of view
 * comes back to its top.
 */
export function useQuestionNumber(total: number) {
  const [searchParams, setSearchParams] = useSearchParams()
  const questionRef = useRef<HTMLDivElement>(null)
  const requested = Number.parseInt(searchParams.get('q') ?? '1', 10)
  const number = Math.min(Math.max(Number.isNaN(requested) ? 1 : requested, 1), Math.max(total, 1))

  const goTo = (next: number, { scroll = false } = {}) => {
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current)
        params.set('q', String(next))
        return params
      },
      { replace: true },
    )
    const element = questionRef.current
    if (scroll && element && element.getBoundingClientRect().top < 0) element.scrollIntoView({ block: 'start' })
  }

  return { number, goTo, questionRef }
}
