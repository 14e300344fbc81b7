import { readNumber } from '@quiz/contracts/rules/numbers'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { PracticeAnswerResult, PracticeCard } from '../../api/practice'
import { NumericAnswer } from '../../components/answers/numeric-answer'
import { OptionList, toggledIds } from '../../components/answers/option-list'
import { Button } from '../../components/ui/button'
import { useLanguage } from '../../i18n/use-bilingual'
import { keyText } from '../../lib/numeric-key-text'
import { optionLetter } from '../../lib/option-letters'
import '../../components/answers/answers.i18n'
import './practice.i18n'

interface TypedPracticeProps {
  question: PracticeCard['question']
  /** The checked answer's result, once sent. */
  result: PracticeAnswerResult | null
  busy: boolean
  onAnswer: (given: number[] | string) => void
}

/**
 * A multiple or numeric card (API.md "Question types"): the exam's checkboxes or number field, then "Check my
 * answer", since neither is answered by a single tap; the result shows the right set or the accepted number.
 */
export function TypedPractice({ question, result, busy, onAnswer }: TypedPracticeProps) {
  const { t } = useTranslation('practice')
  const { t: tAnswers } = useTranslation('answers')
  const language = useLanguage()
  const chooseId = useId()
  const [ticked, setTicked] = useState<number[]>([])
  // What the field shows: a refused entry keeps the exam's last good answer, but must not be checked here.
  const [typed, setTyped] = useState('')
  const several = question.type === 'multiple'
  const answered = result !== null
  const given = several
    ? ticked.length > 0
      ? ticked
      : null
    : readNumber(typed, question.decimals ?? null).ok
      ? typed.trim()
      : null
  const right = new Set(result?.correct_option_ids ?? [])

  const letters = (ids: Set<number>) =>
    question.options
      .map((option, index) => (ids.has(option.id) ? optionLetter(index, language) : null))
      .filter((letter) => letter !== null)
      .join(', ')
  const accepted = () => {
    if (!result?.answer) return null
    const key = keyText(result.answer, language)
    return key.kind === 'range'
      ? t('typed.range', { min: key.min, max: key.max })
      : key.kind === 'tolerance'
        ? t('typed.tolerance', { value: key.value, tolerance: key.tolerance })
        : key.value
  }

  return (
    <div className="practice-typed">
      {several ? (
        <>
          <p id={chooseId} className="practice-typed__choose">
            {tAnswers('choose_several')}
          </p>
          <OptionList
            options={question.options}
            several
            name={`practice-${question.id}`}
            isChecked={(optionId) => ticked.includes(optionId)}
            onPick={(optionId) => setTicked(toggledIds(question.options, ticked, optionId) ?? [])}
            labelledBy="practice-question"
            describedBy={chooseId}
            disabled={answered || busy}
            verdictOf={(optionId) => {
              if (!answered) return null
              const isRight = right.has(optionId)
              const isTicked = ticked.includes(optionId)
              if (!isRight && !isTicked) return null
              return {
                tone: isRight ? 'correct' : 'wrong',
                note: (
                  <span className="practice-typed__notes">
                    {isTicked && <span className="practice-tag">{t('your_answer')}</span>}
                    {isRight && <span className="practice-tag practice-tag--correct">{t('correct_option')}</span>}
                  </span>
                ),
              }
            }}
          />
        </>
      ) : (
        <NumericAnswer
          answer={null}
          decimals={question.decimals ?? null}
          labelledBy="practice-question"
          onAnswer={() => undefined}
          onTyped={setTyped}
          disabled={answered || busy}
        />
      )}
      {!answered && (
        <Button
          variant="primary"
          className="practice-typed__check"
          disabled={busy || given === null}
          onClick={() => given !== null && onAnswer(given)}
        >
          {t('check')}
        </Button>
      )}
      {answered && several && right.size > 0 && (
        <p className="practice-typed__key">
          <strong>{t('typed.right_set')}:</strong> {letters(right)}
        </p>
      )}
      {answered && !several && result.answer && (
        <p className="practice-typed__key">
          <strong>{t('typed.accepted')}:</strong> {accepted()}
        </p>
      )}
    </div>
  )
}
