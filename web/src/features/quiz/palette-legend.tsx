import { useTranslation } from 'react-i18next'
import { PaletteMark } from './question-navigator'
import { PALETTE_STATES } from './palette-state'
import './quiz.i18n'

const legendKey = {
  not_visited: 'legend.not_visited',
  not_answered: 'legend.not_answered',
  answered: 'legend.answered',
  marked: 'legend.marked',
  answered_marked: 'legend.answered_marked',
} as const

/**
 * The palette's key, as NTA shows it on the instructions and beside the palette: a sample button per state, and
 * the current question's blue ring. The samples are pictures (aria-hidden): the words carry the meaning.
 * `counts`, when given, adds how many questions are in each state.
 */
export function PaletteLegend({ counts, className = '' }: { counts?: Record<string, number>; className?: string }) {
  const { t } = useTranslation('quiz')
  return (
    <ul className={`legend ${className}`}>
      {PALETTE_STATES.map((state, index) => (
        <li key={state}>
          <span className={`navigator__number palette--${state} legend__swatch`} aria-hidden="true">
            {counts ? counts[state] : index + 1}
            <PaletteMark state={state} />
          </span>
          <span>{t(legendKey[state])}</span>
        </li>
      ))}
      {!counts && (
        <li>
          <span
            className="navigator__number palette--not_answered navigator__number--current legend__swatch"
            aria-hidden="true"
          >
            6
          </span>
          <span>{t('legend.current')}</span>
        </li>
      )}
    </ul>
  )
}
