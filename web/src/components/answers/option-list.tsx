import type { QuizImage, RichText as RichTextValue } from '@quiz/contracts'
import { Fragment, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useLanguage } from '../../i18n/use-bilingual'
import { optionLetter } from '../../lib/option-letters'
import { PictureZoom } from '../ui/picture-image'
import { RichText } from '../ui/rich-text'
import { OptionImage } from '../ui/svg-image'
import './answers.css'
import './answers.i18n'

export interface ListedOption {
  id: number
  text: RichTextValue
  image: QuizImage
}

interface OptionListProps {
  options: ListedOption[]
  /** Several right options: checkboxes in a group; else one radio group (arrows move the choice). */
  several: boolean
  /** The inputs' group name, one per question. */
  name: string
  isChecked: (optionId: number) => boolean
  onPick: (optionId: number) => void
  /** The question's text, naming the group. */
  labelledBy: string
  describedBy?: string | undefined
  disabled?: boolean
  /** After an answer is checked (practice): the option's tone and the words that say it ("correct answer"). */
  verdictOf?: (optionId: number) => { tone: 'correct' | 'wrong' | null; note: ReactNode } | null
}

/**
 * A question's options as large radio or checkbox rows (WEB.md "Question types on the screens"): the exam's and
 * practice's one control for choosing, so both read the same to a screen reader.
 */
export function OptionList({
  options,
  several,
  name,
  isChecked,
  onPick,
  labelledBy,
  describedBy,
  disabled = false,
  verdictOf,
}: OptionListProps) {
  const { t } = useTranslation('answers')
  const language = useLanguage()
  return (
    <div
      className="options"
      role={several ? 'group' : 'radiogroup'}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
    >
      {options.map((option, index) => {
        const checked = isChecked(option.id)
        const imageAlt = t('option_image_alt', { letter: optionLetter(index, language) })
        const verdict = verdictOf?.(option.id) ?? null
        const tone = verdict?.tone ? ` option--${verdict.tone}` : ''
        return (
          <Fragment key={option.id}>
            <label className={`option${checked ? ' option--selected' : ''}${tone}`}>
              <input
                type={several ? 'checkbox' : 'radio'}
                name={name}
                value={option.id}
                checked={checked}
                disabled={disabled}
                onChange={() => onPick(option.id)}
              />
              <span className="option__body">
                <span className="option__text">
                  <span className="option__letter" aria-hidden="true">
                    {optionLetter(index, language)}.
                  </span>{' '}
                  <RichText text={option.text} inControl />
                  {verdict?.note}
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
  )
}

/** A multiple question's ticked ids after a tap, kept in the options' order (the saved list does not depend on the order of the taps); none ticked: null, which clears it. */
export function toggledIds(options: ListedOption[], ticked: number[], optionId: number): number[] | null {
  const next = ticked.includes(optionId) ? ticked.filter((id) => id !== optionId) : [...ticked, optionId]
  const ordered = options.map((option) => option.id).filter((id) => next.includes(id))
  return ordered.length > 0 ? ordered : null
}
