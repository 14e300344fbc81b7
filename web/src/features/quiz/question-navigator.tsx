import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { NAVIGATOR_PAGE_SIZE, pageCount, pageIndexes, pageOf } from './navigator-paging'
import './quiz.i18n'

interface QuestionNavigatorProps {
  total: number
  /** The question shown, from 0. */
  current: number
  isAnswered: (index: number) => boolean
  onSelect: (index: number) => void
}

/**
 * Question numbers, 10 a page, with << and >> between pages. Current is blue, answered green, the rest gray;
 * the state is also a check mark, a heavier outline and the accessible name ("Question 3, answered"), so
 * colour is never the only cue. The page follows the current question when it moves to another page.
 */
export function QuestionNavigator({ total, current, isAnswered, onSelect }: QuestionNavigatorProps) {
  const { t } = useTranslation('quiz')
  const [page, setPage] = useState(() => pageOf(current))
  const [followed, setFollowed] = useState(current)
  if (followed !== current) {
    setFollowed(current)
    setPage(pageOf(current))
  }

  const pages = pageCount(total)
  const indexes = pageIndexes(page, total)
  const first = (indexes[0] ?? 0) + 1
  const last = (indexes.at(-1) ?? 0) + 1

  return (
    <nav className="navigator" aria-label={t('navigator.label')}>
      <ol className="navigator__grid">
        {indexes.map((index) => {
          const answered = isAnswered(index)
          const isCurrent = index === current
          const state = isCurrent ? 'current' : answered ? 'answered' : 'unanswered'
          return (
            <li key={index}>
              <button
                type="button"
                className={`navigator__number navigator__number--${state}`}
                aria-current={isCurrent ? 'step' : undefined}
                aria-label={t(answered ? 'navigator.question_answered' : 'navigator.question_unanswered', {
                  number: index + 1,
                })}
                onClick={() => onSelect(index)}
              >
                {index + 1}
                {answered && (
                  <span className="navigator__check" aria-hidden="true">
                    ✓
                  </span>
                )}
              </button>
            </li>
          )
        })}
      </ol>
      {pages > 1 && (
        <div className="navigator__pages">
          <button
            type="button"
            className="btn navigator__page-button"
            onClick={() => setPage((value) => Math.max(0, value - 1))}
            disabled={page === 0}
            aria-label={t('navigator.previous_page')}
          >
            {'<<'}
          </button>
          <span className="navigator__range" aria-live="polite">
            {t('navigator.range', { first, last, total, size: NAVIGATOR_PAGE_SIZE })}
          </span>
          <button
            type="button"
            className="btn navigator__page-button"
            onClick={() => setPage((value) => Math.min(pages - 1, value + 1))}
            disabled={page >= pages - 1}
            aria-label={t('navigator.next_page')}
          >
            {'>>'}
          </button>
        </div>
      )}
    </nav>
  )
}
