import type { Bilingual } from '@quiz/contracts'
import { useTranslation } from 'react-i18next'
import { OptionImage, QuestionImage } from '../../../components/ui/svg-image'
import { useBilingual, useLanguage } from '../../../i18n/use-bilingual'
import type { ImportRow } from './import.api'
import { optionLetter } from '../../../lib/option-letters'
import './import.i18n'

/** Both languages of a text, each marked with its language so a screen reader reads it right. */
function BothLanguages({ text, className }: { text: Bilingual; className?: string }) {
  return (
    <>
      {text.en && (
        <span lang="en" className={className}>
          {text.en}
        </span>
      )}
      {text.ne && (
        <span lang="ne" className={className}>
          {text.ne}
        </span>
      )}
    </>
  )
}

/**
 * What a dry run's row may carry of the new question types (API.md "Question types"): the question's `type`, a
 * numeric one's `answer` and `decimals`, and the row's reading `passage`. Read as optional, so a server without them
 * shows rows as before.
 */
type TypedRow = Omit<ImportRow, 'question'> & {
  question: Omit<ImportRow['question'], 'type'> & {
    type?: 'choice' | 'multiple' | 'numeric' | 'written'
    answer?: { value: number; tolerance: number } | { min: number; max: number } | null
    decimals?: number | null
  }
  passage?: { text: Bilingual; image?: ImportRow['question']['image'] } | null
}

/** The question as the bank will store it: text, options with the correct one marked, and its bank fields. */
export function StoredQuestion({ row: imported }: { row: ImportRow }) {
  const { t } = useTranslation('import')
  const language = useLanguage()
  const pick = useBilingual()
  const row = imported as TypedRow
  const { question } = row
  const type = question.type ?? 'choice'
  const answer = question.answer
  const extras: [string, string][] = []
  if (question.topic) extras.push([t('table.topic'), question.topic])
  if (question.tags.length) extras.push([t('table.tags'), question.tags.join(', ')])
  if (question.difficulty) extras.push([t('table.difficulty'), t(`difficulty.${question.difficulty}`)])
  if (question.source) extras.push([t('table.source'), question.source])
  return (
    <div className="import-question">
      {row.passage && (row.passage.text.en || row.passage.text.ne) && (
        <div className="import-question__passage">
          <p className="import-question__extra">{t('types.passage')}</p>
          <p className="import-question__passage-text">
            <BothLanguages text={row.passage.text} />
          </p>
          {row.passage.image && (
            <QuestionImage
              image={row.passage.image}
              alt={pick(row.passage.image.caption) || t('table.passage_picture_alt')}
            />
          )}
        </div>
      )}
      {type !== 'choice' && <span className="badge import-question__type">{t(`types.type_${type}`)}</span>}
      <p className="import-question__text">
        {question.text.en || question.text.ne ? <BothLanguages text={question.text} /> : t('table.no_text')}
      </p>
      {question.image && (
        <QuestionImage image={question.image} alt={pick(question.image.caption) || t('table.picture_alt')} />
      )}
      {question.options.length > 0 && (
        <ol className="import-options">
          {question.options.map((option, index) => (
            <li key={index} className={option.is_correct ? 'import-option import-option--correct' : 'import-option'}>
              <span className="import-option__letter" aria-hidden="true">
                {optionLetter(index, language)}.
              </span>{' '}
              <BothLanguages text={option.text} />
              {option.image && (
                <OptionImage
                  image={option.image}
                  alt={t('table.option_picture_alt', { letter: optionLetter(index, language) })}
                  zoomable
                />
              )}
              {option.is_correct && (
                <span className="badge badge--correct import-option__mark">
                  <span aria-hidden="true">✓ </span>
                  {t('table.correct')}
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
      {type === 'numeric' && answer && (
        <p className="import-question__extra">
          {'min' in answer
            ? t('types.answer_range', { min: answer.min, max: answer.max })
            : t('types.answer_value', { value: answer.value, tolerance: answer.tolerance })}{' '}
          {question.decimals == null ? t('types.any_decimals') : t('types.decimals', { count: question.decimals })}
        </p>
      )}
      {question.hint && (question.hint.en || question.hint.ne) && (
        <p className="import-question__extra">
          {t('table.hint')} <BothLanguages text={question.hint} />
        </p>
      )}
      {extras.length > 0 && (
        <p className="import-question__extra">
          {extras.map(([label, value]) => (
            <span key={label}>
              {label} {value}
            </span>
          ))}
        </p>
      )}
    </div>
  )
}
