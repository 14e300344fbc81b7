import { useId, useState } from 'react'
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
  /** The passage a question (by index) is read under, numbered in paper order from 1; null for a lone question. */
  passageAt?: (index: number) => number | null
}

/** A page's indexes in runs: a passage's questions together, lone questions one by one. */
export function passageRuns(indexes: number[], passageAt: (index: number) => number | null) {
  const runs: { passage: number | null; indexes: number[] }[] = []
  for (const index of indexes) {
    const passage = passageAt(index)
    const last = runs.at(-1)
    if (passage !== null && last?.passage === passage) last.indexes.push(index)
    else runs.push({ passage, indexes: [index] })
  }
  return runs
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
export function QuestionNavigator({
  total,
  current,
  stateAt,
  onSelect,
  offset = 0,
  passageAt = () => null,
}: QuestionNavigatorProps) {
  const { t, i18n } = useTranslation('quiz')
  const idBase = useId()
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

  const numberItem = (index: number) => {
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
  }

  return (
    <nav className="navigator" aria-label={t('navigator.label')}>
      <ol className="navigator__grid">
        {passageRuns(indexes, passageAt).map(({ passage, indexes: run }) =>
          passage === null ? (
            run.map(numberItem)
          ) : (
            // A passage's questions stay together (API.md): bracketed on a row of their own under its name.
            <li key={`passage-${run[0]}`} className="navigator__passage">
              <div role="group" aria-labelledby={`${idBase}-passage-${run[0]}`}>
                <p id={`${idBase}-passage-${run[0]}`} className="navigator__passage-label">
                  {t('navigator.passage', { number: digitsFor(String(passage), i18n.language) })}
                </p>
                <ol className="navigator__grid">{run.map(numberItem)}</ol>
              </div>
            </li>
          ),
        )}
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
