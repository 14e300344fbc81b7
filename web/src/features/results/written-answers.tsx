import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import type { ReportCard } from './results.api'
import { WrittenAnswer } from './written-answer'
import { writtenQuestionsOf } from './written.api'
import './written.i18n'

/** The report card's written questions, each with its marks and marked pages. */
export function WrittenAnswers({ card }: { card: ReportCard }) {
  const { t } = useTranslation('written')
  const { hash } = useLocation()
  const written = writtenQuestionsOf(card)
  // A `written_marked` notification's link, or a re-mark's, may name one answer: show it once it is drawn.
  useEffect(() => {
    if (hash.startsWith('#written-')) document.getElementById(hash.slice(1))?.scrollIntoView?.()
  }, [hash])
  if (written.length === 0) return null
  return (
    <section className="written-answers" aria-labelledby="written-answers-heading">
      <h2 id="written-answers-heading">{t('section')}</h2>
      {written.map(({ question, number }, index) => (
        <WrittenAnswer key={question.id} attemptId={card.id} question={question} number={number} first={index === 0} />
      ))}
    </section>
  )
}
