import { Fragment, useId } from 'react'
import { useTranslation } from 'react-i18next'
import { RichText } from '../../components/ui/rich-text'
import { PictureZoom } from '../../components/ui/picture-image'
import { OptionImage, QuestionImage } from '../../components/ui/svg-image'
import { useBilingual, useLanguage } from '../../i18n/use-bilingual'
import { optionLetter } from '../../lib/option-letters'
import type { QuizQuestion } from '@quiz/contracts'
import './quiz.i18n'

interface QuestionViewProps {
  question: QuizQuestion
  total: number
  selectedOptionId: number | null | undefined
  onSelect: (optionId: number) => void
  disabled?: boolean
}

/** One question: its text, image and caption, and the options as large radio rows (keyboard: arrows move the choice). */
export function QuestionView({ question, total, selectedOptionId, onSelect, disabled = false }: QuestionViewProps) {
  const { t } = useTranslation('quiz')
  const pick = useBilingual()
  const language = useLanguage()
  const headingId = useId()
  const textId = useId()

  return (
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
      <div className="options" role="radiogroup" aria-labelledby={textId}>
        {question.options.map((option, index) => {
          const checked = selectedOptionId === option.id
          const imageAlt = t('question.option_image_alt', { letter: optionLetter(index, language) })
          return (
            <Fragment key={option.id}>
              <label className={`option${checked ? ' option--selected' : ''}`}>
                <input
                  type="radio"
                  name={`question-${question.id}`}
                  value={option.id}
                  checked={checked}
                  disabled={disabled}
                  onChange={() => onSelect(option.id)}
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
    </section>
  )
}
