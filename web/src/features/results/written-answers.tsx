import { useQueries } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import type { ReportCard } from './results.api'
import { WrittenAnswer } from './written-answer'
import { writtenQueries, writtenQuestionsOf } from './written.api'
import './written.i18n'

/** The report card's written questions, each with its marks and marked pages. */
export function WrittenAnswers({ card }: { card: ReportCard }) {
  const { t } = useTranslation('written')
  const { hash } = useLocation()
  const written = writtenQuestionsOf(card)
  // A notification of marks (released, re-marked, re-scored) names one answer: `#written-{questionId}`. Each answer
  // grows as its result arrives, so the scroll waits for the one named and those above it (the same queries as
  // theirs: nothing is fetched twice), and happens once per link followed.
  const named = hash.startsWith('#written-')
    ? written.findIndex(({ question }) => `#written-${question.id}` === hash)
    : -1
  const above = useQueries({
    queries: written.slice(0, named + 1).map(({ question }) => writtenQueries.result(card.id, question.id)),
  })
  const drawn = named >= 0 && above.every((result) => !result.isPending)
  const scrolledTo = useRef<string | null>(null)
  useEffect(() => {
    if (!drawn || scrolledTo.current === hash) return
    scrolledTo.current = hash
    document.getElementById(hash.slice(1))?.scrollIntoView?.({ block: 'start' })
  }, [drawn, hash])
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
