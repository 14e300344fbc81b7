import { Fragment, useId } from 'react'
import { useTranslation } from 'react-i18next'
import { RichText } from '../../components/ui/rich-text'
import { PictureZoom } from '../../components/ui/picture-image'
import { OptionImage, QuestionImage } from '../../components/ui/svg-image'
import { useBilingual, useLanguage } from '../../i18n/use-bilingual'
import { optionLetter } from '../../lib/option-letters'
import type { QuizQuestion } from '@quiz/contracts'
import { NumericAnswer } from './numeric-answer'
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
  const language = useLanguage()
  const headingId = useId()
  const textId = useId()
  const chooseId = useId()
  const several = question.type === 'multiple'
  const ticked = Array.isArray(answer) ? answer : []
  const toggle = (optionId: number) => {
    const next = ticked.includes(optionId) ? ticked.filter((id) => id !== optionId) : [...ticked, optionId]
    // Kept in the options' order so the saved list does not depend on the order of the taps; none ticked: cleared.
    const ordered = question.options.map((option) => option.id).filter((id) => next.includes(id))
    onAnswer?.(ordered.length > 0 ? ordered : null)
  }

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
        <div
          className="options"
          role={several ? 'group' : 'radiogroup'}
          aria-labelledby={textId}
          aria-describedby={several ? chooseId : undefined}
        >
          {question.options.map((option, index) => {
            const checked = several ? ticked.includes(option.id) : selectedOptionId === option.id
            const imageAlt = t('question.option_image_alt', { letter: optionLetter(index, language) })
            return (
              <Fragment key={option.id}>
                <label className={`option${checked ? ' option--selected' : ''}`}>
                  <input
                    type={several ? 'checkbox' : 'radio'}
                    name={`question-${question.id}`}
                    value={option.id}
                    checked={checked}
                    disabled={disabled}
                    onChange={() => (several ? toggle(option.id) : onSelect(option.id))}
                  />
                  <span className="option__body">
                    <span className="option__text">
                      <span className="option__letter" aria-hidden="true">
                        {optionLetter(index, language)}.
                      </span>{' '}
                      <RichText text={option.text} inControl />
                    </span>
                    {option.image && <OptionImage image={option.image} alt={imageAlt} />}
                  </span>
                </label>
                {option.image?.picture && (
                  <PictureZoom picture={option.image.picture} alt={imageAlt} caption={option.image.caption} />
                )}
              </Fragment>
            )
          })}
        </div>
      )}
    </section>
  )
  if (!question.passage) return view
  return (
    <div className="passage-layout">
      <PassageView key={question.passage.id} passage={question.passage} />
      <div className="passage-layout__question">{view}</div>
    </div>
  )
}
