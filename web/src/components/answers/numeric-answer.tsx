import { readNumber } from '@quiz/contracts/rules/numbers'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useLanguage } from '../../i18n/use-bilingual'
import { digitsFor } from '../../lib/digits'
import './answers.css'
import './answers.i18n'

interface NumericAnswerProps {
  /** The saved answer: the typed string (or its shortest form, as the server returns it), or none. */
  answer: string | null
  decimals: number | null
  /** The text of the question, naming the field. */
  labelledBy: string
  onAnswer: (typed: string | null) => void
  /** Every change as typed, refused ones included (practice checks only what the field shows). */
  onTyped?: (typed: string) => void
  disabled?: boolean
}

/**
 * A numeric question's one text field (API.md "Question types"), on the exam and practice screens. It reads Nepali or Latin digits with the contracts'
 * number rule, the one the server marks with, so what is refused here is refused there: a refused entry is told
 * under the field as typed and is not saved (the last good answer stays); an empty field clears the answer.
 */
export function NumericAnswer({
  answer,
  decimals,
  labelledBy,
  onAnswer,
  onTyped,
  disabled = false,
}: NumericAnswerProps) {
  const { t } = useTranslation('answers')
  const language = useLanguage()
  const [typed, setTyped] = useState(answer ?? '')
  const hintId = useId()
  const messageId = useId()
  const read = readNumber(typed, decimals)
  const refused = !read.ok && read.reason !== 'empty' ? read.reason : null

  const change = (value: string) => {
    setTyped(value)
    onTyped?.(value)
    const next = readNumber(value, decimals)
    if (next.ok) onAnswer(value.trim())
    else if (next.reason === 'empty') onAnswer(null)
  }

  return (
    <div className="numeric">
      <input
        className="numeric__input"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        spellCheck={false}
        aria-labelledby={labelledBy}
        aria-describedby={`${hintId} ${messageId}`}
        aria-invalid={refused ? true : undefined}
        value={typed}
        disabled={disabled}
        onChange={(event) => change(event.target.value)}
      />
      <p id={hintId} className="numeric__hint">
        {decimals === null ? t('numeric.hint_any') : t('numeric.hint_decimals', { count: decimals })}
      </p>
      <p id={messageId} className={refused ? 'numeric__error' : 'numeric__shown'} aria-live="polite">
        {refused
          ? t(`numeric.refused.${refused}`)
          : read.ok
            ? t('numeric.marked_as', { value: digitsFor(read.text, language) })
            : ''}
      </p>
    </div>
  )
}
