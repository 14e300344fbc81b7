import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { MarkedPhoto, RegionCrop } from './review-photo'
import { LearnerSelect, SettleFailure, type ReviewCardProps } from './review-parts'
import { usePageFlagText, usePageLine } from './scan-outcome'
import { sittingQueries, useSettlePage, type BookletPage } from './sittings.api'
import './sittings.i18n'

const QUESTION_FLAGS = new Set(['question_unclear', 'no_question', 'duplicate_page', 'spare_page'])

/** The question numbers the page seems to answer: what was read, else what an unclear flag's bubbles suggest. */
export function suggestedQuestions(page: BookletPage): number[] {
  if (page.questions.length) return page.questions
  const unclear = page.flags.find((flag) => flag.kind === 'question_unclear')
  return (unclear?.marks ?? []).map(Number).filter((number) => Number.isInteger(number) && number > 0)
}

/**
 * A booklet page that needs a person (API.md "On paper"): the photo with its question bubbles outlined, and the
 * learner (when the roll was not read), the question(s) it answers, or discarding it.
 */
export function PageCard({ sitting, page, roster, onSettled }: ReviewCardProps<BookletPage> & { page: BookletPage }) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language)
  const flagText = usePageFlagText()
  const line = usePageLine()
  const settle = useSettlePage(sitting.id, page.id)
  const [roll, setRoll] = useState('')
  const [questions, setQuestions] = useState<number[]>(() => suggestedQuestions(page))
  const rollFlag = page.flags.find((flag) => flag.kind === 'roll')
  const questionFlags = page.flags.filter((flag) => QUESTION_FLAGS.has(flag.kind))
  const rollNumber = roll ? Number(roll) : page.roll_number
  const set = roster?.roster.find((entry) => entry.roll_number === rollNumber)?.set ?? null
  // A learner's own set's written numbers; every set's while the learner is unknown.
  const layout = useQuery(sittingQueries.bookletLayout(sitting.id, set))
  const numbers = layout.data?.questions.map((question) => question.number) ?? []
  // A number read that is not a written question of the learner's set is not sent (the server would refuse it).
  const chosen = questions.filter((number) => numbers.includes(number))
  const learnerKnown = page.learner !== null && !rollFlag ? true : roll !== ''
  const undecided = !learnerKnown || chosen.length === 0
  const who = page.learner ? page.learner.full_name || page.learner.username : t('outcome.unknown_learner')
  const heading = `page-${page.id}`
  // mutateAsync, as the sheets' card: once settled the page leaves the list and the review page says so.
  const send = (body: Parameters<typeof settle.mutateAsync>[0]) =>
    void settle.mutateAsync(body).then(onSettled, () => undefined)
  const toggle = (number: number, on: boolean) =>
    setQuestions((current) =>
      on ? [...new Set([...current, number])].sort((a, b) => a - b) : current.filter((each) => each !== number),
    )
  return (
    <article className="card review-card" aria-labelledby={heading}>
      <h3 id={heading}>
        {who} · {line(page)}
      </h3>
      <div className="review-card__body">
        <MarkedPhoto
          source={{ kind: 'page', id: page.id }}
          boxes={[page.question_box, ...(rollFlag ? [rollFlag.box] : [])]}
          alt={t('review.page_photo_alt', {
            roll: page.roll_number === null ? '?' : n(page.roll_number),
            page: page.page_number === null ? t('outcome.spare_page') : n(page.page_number),
          })}
        />
        <div className="review-card__flags stack">
          <ul className="review-page-flags">
            {page.flags.map((flag, index) => (
              <li key={index}>{flagText(flag)}</li>
            ))}
          </ul>
          {rollFlag && (
            <div className="field review-flag">
              <label htmlFor={`page-roll-${page.id}`}>{t('review.page_learner')}</label>
              <RegionCrop source={{ kind: 'page', id: page.id }} box={rollFlag.box} label={t('review.crop_roll')} />
              <LearnerSelect id={`page-roll-${page.id}`} value={roll} roster={roster} onChange={setRoll} />
            </div>
          )}
          <fieldset className="review-flag review-flag--question">
            <legend>
              <strong>{t('review.page_questions')}</strong>
              {questionFlags.length === 0 && (
                <span className="review-flag__why">{t('review.page_questions_check')}</span>
              )}
            </legend>
            <RegionCrop
              source={{ kind: 'page', id: page.id }}
              box={page.question_box}
              label={t('review.crop_page_questions')}
            />
            {layout.isError ? (
              <Alert kind="error">{t('review.page_numbers_failed')}</Alert>
            ) : (
              <div className="review-choices">
                {numbers.map((number) => (
                  <label
                    key={number}
                    className={
                      suggestedQuestions(page).includes(number)
                        ? 'review-choice review-choice--marked'
                        : 'review-choice'
                    }
                  >
                    <input
                      type="checkbox"
                      checked={questions.includes(number)}
                      onChange={(event) => toggle(number, event.target.checked)}
                    />
                    {n(number)}
                  </label>
                ))}
              </div>
            )}
          </fieldset>
          <SettleFailure error={settle.error} />
          <div className="actions">
            <Button
              variant="primary"
              disabled={undecided || settle.isPending}
              onClick={() => send({ ...(roll ? { roll_number: Number(roll) } : {}), questions: chosen })}
            >
              {settle.isPending ? t('review.settling') : t('review.settle')}
            </Button>
            <Button variant="danger" disabled={settle.isPending} onClick={() => send({ discard: true })}>
              {t('review.discard_page')}
            </Button>
          </div>
        </div>
      </div>
    </article>
  )
}
