import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { RichText } from '../../components/ui/rich-text'
import { QuestionImage } from '../../components/ui/svg-image'
import { useBilingual } from '../../i18n/use-bilingual'
import type { QuizQuestion } from '@quiz/contracts'
import { NumericAnswer } from '../../components/answers/numeric-answer'
import { OptionList, toggledIds } from '../../components/answers/option-list'
import { PassageView } from './passage-view'
import './quiz.i18n'

/** A multiple question's ticked option ids or a numeric question's typed string (API.md "Question types"). */
export type TypedAnswer = number[] | string | null

interface QuestionViewProps {
  question: QuizQuestion
  total: number
  selectedOptionId: number | null | undefined
  onSelect: (optionId: number) => void
  /** A multiple or numeric question's saved answer and how a change is saved. */
  answer?: TypedAnswer | undefined
  onAnswer?: (answer: TypedAnswer) => void
  disabled?: boolean
}

/** One question: its text, image and caption, and the options as large radio rows (keyboard: arrows move the choice). */
export function QuestionView({
  question,
  total,
  selectedOptionId,
  onSelect,
  answer,
  onAnswer,
  disabled = false,
}: QuestionViewProps) {
  const { t } = useTranslation('quiz')
  const pick = useBilingual()
  const headingId = useId()
  const textId = useId()
  const chooseId = useId()
  const several = question.type === 'multiple'
  const ticked = Array.isArray(answer) ? answer : []

  const view = (
    <section className="question card" role="group" aria-labelledby={headingId}>
      <h2 id={headingId} className="question__number" tabIndex={-1}>
        {t('question.heading', { number: question.number, total })}
      </h2>
      <RichText as="p" id={textId} className="question__text" text={question.text} />
      {question.image && (
        <QuestionImage
          image={question.image}
          alt={pick(question.image.caption) || t('question.image_alt', { number: question.number })}
          eager
        />
      )}
      {several && (
        <p id={chooseId} className="question__choose">
          {t('question.choose_several')}
        </p>
      )}
      {question.type === 'numeric' ? (
        <NumericAnswer
          key={question.id}
          answer={typeof answer === 'string' ? answer : null}
          decimals={question.decimals ?? null}
          labelledBy={textId}
          onAnswer={(typed) => onAnswer?.(typed)}
          disabled={disabled}
        />
      ) : (
        <OptionList
          options={question.options}
          several={several}
          name={`question-${question.id}`}
          isChecked={(optionId) => (several ? ticked.includes(optionId) : selectedOptionId === optionId)}
          onPick={(optionId) =>
            several ? onAnswer?.(toggledIds(question.options, ticked, optionId)) : onSelect(optionId)
          }
          labelledBy={textId}
          describedBy={several ? chooseId : undefined}
          disabled={disabled}
        />
      )}
    </section>
  )
  if (!question.passage) return view
  return (
    <div className="passage-layout">
      {/* Keyed by the question: moving on to the passage's next question shows it folded, as read (WEB.md). */}
      <PassageView key={question.id} passage={question.passage} />
      <div className="passage-layout__question">{view}</div>
    </div>
  )
}
