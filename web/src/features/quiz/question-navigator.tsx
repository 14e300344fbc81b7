import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { digitsFor } from '../../lib/digits'
import { NAVIGATOR_PAGE_SIZE, pageCount, pageIndexes, pageOf } from './navigator-paging'
import type { PaletteState } from './palette-state'
import './quiz.i18n'
import { Button } from '../../components/ui/button'

interface QuestionNavigatorProps {
  total: number
  /** The question shown, from 0. */
  current: number
  stateAt: (index: number) => PaletteState
  onSelect: (index: number) => void
  /** Questions before the first shown: a section's navigator numbers its buttons as the paper does. */
  offset?: number
}

/** Accessible name of a navigator button per state: "Question 3, answered and marked for review". */
export const stateLabelKey = {
  not_visited: 'navigator.question_not_visited',
  not_answered: 'navigator.question_unanswered',
  answered: 'navigator.question_answered',
  marked: 'navigator.question_marked',
  answered_marked: 'navigator.question_answered_marked',
} as const satisfies Record<PaletteState, string>

/** The state's mark inside a button: a check for an answer, besides the colour and shape (never colour alone). */
export function PaletteMark({ state }: { state: PaletteState }) {
  if (state !== 'answered' && state !== 'answered_marked') return null
  return (
    <span className="navigator__check" aria-hidden="true">
      ✓
    </span>
  )
}

/**
 * Question numbers, 10 a page, with << and >> between pages, in NTA's five palette states (colour, shape and a
 * check mark for an answer). The current question keeps its state's colour and gets SPEC.md's blue: a thick blue
 * ring and an underline. The accessible name says number and state; the page follows the current question.
 */
export function QuestionNavigator({ total, current, stateAt, onSelect, offset = 0 }: QuestionNavigatorProps) {
  const { t, i18n } = useTranslation('quiz')
  const [page, setPage] = useState(() => pageOf(current))
  const [followed, setFollowed] = useState(current)
  if (followed !== current) {
    setFollowed(current)
    setPage(pageOf(current))
  }

  const pages = pageCount(total)
  const indexes = pageIndexes(page, total)
  const first = (indexes[0] ?? 0) + 1 + offset
  const last = (indexes.at(-1) ?? 0) + 1 + offset

  return (
    <nav className="navigator" aria-label={t('navigator.label')}>
      <ol className="navigator__grid">
        {indexes.map((index) => {
          const state = stateAt(index)
          const isCurrent = index === current
          return (
            <li key={index}>
              <button
                type="button"
                className={`navigator__number palette--${state}${isCurrent ? ' navigator__number--current' : ''}`}
                aria-current={isCurrent ? 'step' : undefined}
                aria-label={t(stateLabelKey[state], { number: index + 1 + offset })}
                onClick={() => onSelect(index)}
              >
                {digitsFor(String(index + 1 + offset), i18n.language)}
                <PaletteMark state={state} />
              </button>
            </li>
          )
        })}
      </ol>
      {pages > 1 && (
        <div className="navigator__pages">
          <Button
            className="navigator__page-button"
            onClick={() => setPage((value) => Math.max(0, value - 1))}
            disabled={page === 0}
            aria-label={t('navigator.previous_page')}
          >
            {'<<'}
          </Button>
          <span className="navigator__range" aria-live="polite">
            {t('navigator.range', { first, last, total: total + offset, size: NAVIGATOR_PAGE_SIZE })}
          </span>
          <Button
            className="navigator__page-button"
            onClick={() => setPage((value) => Math.min(pages - 1, value + 1))}
            disabled={page >= pages - 1}
            aria-label={t('navigator.next_page')}
          >
            {'>>'}
          </Button>
        </div>
      )}
    </nav>
  )
}
