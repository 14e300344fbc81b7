import { useRef } from 'react'
import { useSearchParams } from 'react-router'

/**
 * The question on screen, numbered from 1 and kept in the URL (`?q=`), so a reload shows the same one. `goTo`
 * replaces the entry (moving through the paper is not history); with `scroll` a question scrolled out of view
 * comes back to its top. Moving puts focus on the new question's heading once it is drawn (`headingShown`), so a
 * screen reader says "Question 12 of 100" and reads on from there instead of staying on the button (WEB.md "A blind
 * learner"); opening the screen does not, the screen's own heading has it then.
 */
export function useQuestionNumber(total: number) {
  const [searchParams, setSearchParams] = useSearchParams()
  const questionRef = useRef<HTMLDivElement>(null)
  const headingWanted = useRef(false)
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
    headingWanted.current = true
    const element = questionRef.current
    if (scroll && element && element.getBoundingClientRect().top < 0) element.scrollIntoView({ block: 'start' })
  }

  /** Called once the question `shown` is drawn: focuses its heading if the learner moved to it. */
  const headingShown = (shown: number) => {
    if (!headingWanted.current || shown !== number) return
    const heading = questionRef.current?.querySelector<HTMLElement>('.question__number')
    if (!heading) return
    headingWanted.current = false
    heading.focus()
  }

  return { number, goTo, questionRef, headingShown }
}
