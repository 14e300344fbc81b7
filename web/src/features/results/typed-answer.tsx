import type { NumericKey } from '@quiz/contracts/rules/numbers'
import { useTranslation } from 'react-i18next'
import { useLanguage } from '../../i18n/use-bilingual'
import { digitsFor, formatMarks } from '../../lib/format'
import { keyText } from '../../lib/numeric-key-text'
import { optionLetter } from '../../lib/option-letters'
import type { QuestionStatus } from './question-status'
import { formatMax } from './report-sections'
import type { ReportQuestion } from './results.api'
import './results.i18n'

// A report's lines for the question types beyond one right option (API.md "Question types"): the ticked set beside
// the right one, the typed number beside the accepted one, and partial marks named as such.

/** "11.5 ± 0.1" / "any number from 11 to 12" / "11.5". */
export function useAcceptedText() {
  const { t } = useTranslation('results')
  const language = useLanguage()
  return (key: NumericKey) => {
    const text = keyText(key, language)
    if (text.kind === 'range') return t('typed.range', { min: text.min, max: text.max })
    if (text.kind === 'tolerance') return t('typed.tolerance', { value: text.value, tolerance: text.tolerance })
    return text.value
  }
}

/** "Partly right: +2.00 of 4" (or without "of" when the card cannot tell the question's full marks). */
export function PartialMarks({ marks, fullMarks }: { marks: number; fullMarks: number | null }) {
  const { t } = useTranslation('results')
  const language = useLanguage()
  const gained = formatMarks(marks, language)
  return (
    <p className="report-detail__partial">
      {fullMarks === null
        ? t('typed.partial', { marks: gained })
        : t('typed.partial_of', { marks: gained, full: formatMax(fullMarks, language) })}
    </p>
  )
}

/** "You ticked: A, C" beside "The right set: A, B, C" (the options below tag each one too). */
export function TickedSummary({ question, ticked }: { question: ReportQuestion; ticked: number[] }) {
  const { t } = useTranslation('results')
  const language = useLanguage()
  const letters = (chosen: (option: ReportQuestion['options'][number]) => boolean) =>
    question.options
      .map((option, index) => (chosen(option) ? optionLetter(index, language) : null))
      .filter((letter) => letter !== null)
      .join(', ')
  const right = letters((option) => option.is_correct)
  return (
    <dl className="report-typed">
      <div>
        <dt>{t('typed.ticked')}</dt>
        <dd>{letters((option) => ticked.includes(option.id))}</dd>
      </div>
      {/* While the key is withheld no option is right: no set to show. */}
      {right !== '' && (
        <div>
          <dt>{t('typed.right_set')}</dt>
          <dd>{right}</dd>
        </div>
      )}
    </dl>
  )
}

/** A numeric question's typed value (or none) beside the accepted value ± tolerance or range. */
export function NumericVerdict({
  question,
  value,
  status,
}: {
  question: ReportQuestion
  value: string | null
  status: QuestionStatus
}) {
  const { t } = useTranslation('results')
  const language = useLanguage()
  const accepted = useAcceptedText()
  const tone = status === 'correct' ? 'correct' : status === 'incorrect' ? 'incorrect' : 'plain'
  return (
    <dl className="report-typed">
      {value !== null && (
        <div className={`report-typed__yours report-option--${tone}`}>
          <dt>{t('detail.your_answer')}</dt>
          <dd>{digitsFor(value, language)}</dd>
        </div>
      )}
      {question.answer && (
        <div>
          <dt>{t('typed.accepted')}</dt>
          <dd>{accepted(question.answer)}</dd>
        </div>
      )}
    </dl>
  )
}
