import type { QuizQuestion } from '@quiz/contracts'
import { writtenAnswerLimits } from '@quiz/contracts/rules/written-answers'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { Button, buttonClass } from '../../../components/ui/button'
import { RichText } from '../../../components/ui/rich-text'
import { QuestionImage } from '../../../components/ui/svg-image'
import { useBilingual, useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import type { WrittenQueue } from './written-queue'
import type { WrittenAnswerState, WrittenPageEntry } from './written-snapshot'
import type { PageRefusal } from './written-transport'
import { countWords } from './word-count'
import { PAGE_LONG_SIDE } from './written.api'
import '../quiz.i18n'
import './written.css'

interface WrittenAnswerProps {
  question: QuizQuestion
  total: number
  state: WrittenAnswerState | undefined
  queue: WrittenQueue | null
  disabled: boolean
}

const refusalKey: Record<PageRefusal, `written.refused.${PageRefusal}`> = {
  too_large: 'written.refused.too_large',
  too_many_pages: 'written.refused.too_many_pages',
  quota_full: 'written.refused.quota_full',
  not_a_photo: 'written.refused.not_a_photo',
  upload_closed: 'written.refused.upload_closed',
  other: 'written.refused.other',
}

/**
 * A written question on the exam screen (keyed by the question: the text box starts from what the device holds) (WEB.md "Written answers"): its marks and word limit, a text box with a
 * live word count, and photos of pages written by hand, from the rear camera or the gallery, each shrunk on the
 * phone and queued like answers.
 */
export function WrittenAnswer({ question, total, state, queue, disabled }: WrittenAnswerProps) {
  const { t } = useTranslation('quiz')
  const pick = useBilingual()
  const language = useLanguage()
  const headingId = useId()
  const textId = useId()
  const countId = useId()
  const photosId = useId()
  const [text, setText] = useState(state?.text ?? '')
  const [preparing, setPreparing] = useState(0)
  const pages = state?.pages ?? []
  const keptPages = pages.filter((page) => page.status !== 'refused').length
  const full = keptPages >= writtenAnswerLimits.pages
  const words = countWords(text)
  const over = question.word_limit !== null && words > question.word_limit

  const addPhotos = async (files: File[]) => {
    if (!queue || files.length === 0) return
    const room = writtenAnswerLimits.pages - keptPages
    const taken = files.slice(0, Math.max(0, room))
    setPreparing((count) => count + taken.length)
    try {
      // The shrinking code comes with the first photo, not with the exam screen.
      const { shrinkPhotos } = await import('../../../lib/photo')
      await queue.addPhotos(question.id, await shrinkPhotos(taken, { longSide: PAGE_LONG_SIDE, redrawSmaller: true }))
    } finally {
      setPreparing((count) => count - taken.length)
    }
  }
  const picked = (event: React.ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])]
    event.target.value = ''
    void addPhotos(files)
  }

  return (
    <section className="question card written" role="group" aria-labelledby={headingId}>
      <h2 id={headingId} className="question__number" tabIndex={-1}>
        {t('question.heading', { number: question.number, total })}
      </h2>
      <RichText as="p" className="question__text" text={question.text} />
      {question.image && (
        <QuestionImage
          image={question.image}
          alt={pick(question.image.caption) || t('question.image_alt', { number: question.number })}
          eager
        />
      )}
      <p className="written__terms">
        <span>
          {t('written.marks', { marks: formatNumber(question.marks ?? 0, language, { maximumFractionDigits: 2 }) })}
        </span>
        {question.word_limit !== null && (
          <span>
            {t('written.word_limit', {
              count: question.word_limit,
              limit: formatNumber(question.word_limit, language),
            })}
          </span>
        )}
      </p>

      <div className="field written__text">
        <label htmlFor={textId}>{t('written.text_label')}</label>
        <textarea
          id={textId}
          rows={8}
          value={text}
          maxLength={writtenAnswerLimits.textLength}
          disabled={disabled}
          aria-describedby={countId}
          spellCheck={false}
          onChange={(event) => {
            setText(event.target.value)
            queue?.setText(question.id, event.target.value)
          }}
        />
        <p id={countId} className={`written__count${over ? ' written__count--over' : ''}`}>
          {question.word_limit === null
            ? t('written.words', { count: words, words: formatNumber(words, language) })
            : t('written.words_of_limit', {
                count: words,
                words: formatNumber(words, language),
                limit: formatNumber(question.word_limit, language),
              })}
          {over && ` ${t('written.over_limit')}`}
        </p>
      </div>

      <section className="written__photos" aria-labelledby={photosId}>
        <h3 id={photosId}>{t('written.photos_heading')}</h3>
        <p className="field__hint">
          {t('written.photos_hint', { max: formatNumber(writtenAnswerLimits.pages, language) })}
        </p>
        <PhotoPickers off={disabled || full} onChange={picked} />
        {full && (
          <p className="field__hint">{t('written.full', { max: formatNumber(writtenAnswerLimits.pages, language) })}</p>
        )}
        {preparing > 0 && (
          <p role="status" className="muted">
            {t('written.preparing', { count: preparing })}
          </p>
        )}
        {pages.length > 0 && (
          <ol className="written__pages">
            {pages.map((page, index) => (
              <PageThumb
                key={page.key}
                page={page}
                number={index + 1}
                count={pages.length}
                disabled={disabled && page.status !== 'refused'}
                onMove={(step) => queue?.movePage(question.id, page.key, step)}
                onRemove={() => queue?.removePage(question.id, page.key)}
              />
            ))}
          </ol>
        )}
      </section>
    </section>
  )
}

/** "Take a photo" (the rear camera) and "Choose photos" (the gallery, several at once). */
function PhotoPickers({
  off,
  onChange,
}: {
  off: boolean
  onChange: (event: React.ChangeEvent<HTMLInputElement>) => void
}) {
  const { t } = useTranslation('quiz')
  return (
    <div className="written__pick-row">
      <label
        className={buttonClass({
          variant: 'primary',
          className: `written__pick${off ? ' written__pick--off' : ''}`,
        })}
      >
        <input
          className="visually-hidden"
          type="file"
          accept="image/*"
          capture="environment"
          disabled={off}
          onChange={onChange}
        />
        {t('written.take_photo')}
      </label>
      <label className={buttonClass({ className: `written__pick${off ? ' written__pick--off' : ''}` })}>
        <input className="visually-hidden" type="file" accept="image/*" multiple disabled={off} onChange={onChange} />
        {t('written.choose_photos')}
      </label>
    </div>
  )
}

function PageThumb({
  page,
  number,
  count,
  disabled,
  onMove,
  onRemove,
}: {
  page: WrittenPageEntry
  number: number
  count: number
  disabled: boolean
  onMove: (step: -1 | 1) => void
  onRemove: () => void
}) {
  const { t } = useTranslation('quiz')
  const language = useLanguage()
  const shown = formatNumber(number, language)
  return (
    <li className={`written__page written__page--${page.status}`}>
      {page.preview ? (
        <img className="written__thumb" src={page.preview} alt={t('written.page_alt', { number: shown })} />
      ) : (
        <span className="written__thumb written__thumb--none">{shown}</span>
      )}
      <div className="written__page-body">
        <p className="written__page-name">{t('written.page', { number: shown })}</p>
        {page.status === 'refused' && page.refusal ? (
          <Alert kind="error">{t(refusalKey[page.refusal])}</Alert>
        ) : (
          <p className="muted written__page-status">{t(`written.status.${page.status}`)}</p>
        )}
        <div className="written__page-actions">
          <Button
            small
            disabled={disabled || number <= 1 || page.status === 'refused'}
            aria-label={t('written.move_earlier', { number: shown })}
            onClick={() => onMove(-1)}
          >
            ↑
          </Button>
          <Button
            small
            disabled={disabled || number >= count || page.status === 'refused'}
            aria-label={t('written.move_later', { number: shown })}
            onClick={() => onMove(1)}
          >
            ↓
          </Button>
          <Button
            small
            variant="danger"
            disabled={disabled || page.status === 'sending'}
            aria-label={t('written.remove', { number: shown })}
            onClick={onRemove}
          >
            {t('written.remove_short')}
          </Button>
        </div>
      </div>
    </li>
  )
}
