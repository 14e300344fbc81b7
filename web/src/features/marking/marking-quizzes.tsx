import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Alert } from '../../components/ui/alert'
import { Button, buttonClass } from '../../components/ui/button'
import { Loading } from '../../components/ui/loading'
import { useBilingualLang, useLanguage } from '../../i18n/use-bilingual'
import { formatDateTime, formatNumber } from '../../lib/format'
import { paths } from '../../lib/paths'
import { markingQueries, type MarkingQuiz } from './marking.api'
import './marking.i18n'

// `to_mark` first: it is the reader's own work left; the other three are the quiz's (docs/decisions/094).
const COUNTS = ['to_mark', 'marked', 'released', 'submitted'] as const

/** A marker's way in: the quizzes with written answers, newest activity first, each opening its marking overview. */
export function MarkingQuizzes() {
  const { t } = useTranslation('marking')
  const language = useLanguage()
  const [page, setPage] = useState(1)
  const list = useQuery({ ...markingQueries.quizzes(page), placeholderData: keepPreviousData })
  const n = (value: number) => formatNumber(value, language)

  if (list.isPending) return <Loading label={t('home.loading')} />
  if (list.isError) return <Alert kind="error">{t('home.load_failed')}</Alert>
  const { count, page_size: pageSize, quizzes } = list.data
  if (count === 0) return <p className="card admin-empty">{t('home.empty')}</p>
  const pages = Math.ceil(count / pageSize)

  return (
    <section aria-labelledby="marking-quizzes-heading">
      <h2 id="marking-quizzes-heading">{t('home.quizzes_heading')}</h2>
      <ul className="marking-quizzes">
        {quizzes.map((quiz) => (
          <QuizCard key={quiz.id} quiz={quiz} n={n} language={language} />
        ))}
      </ul>
      {pages > 1 && (
        <nav className="marking-quizzes__pages" aria-label={t('home.pages')}>
          <Button variant="plain" small disabled={page === 1} onClick={() => setPage(page - 1)}>
            {t('home.previous')}
          </Button>
          <span className="muted">{t('home.page_of', { page: n(page), pages: n(pages) })}</span>
          <Button variant="plain" small disabled={page >= pages} onClick={() => setPage(page + 1)}>
            {t('home.next')}
          </Button>
        </nav>
      )}
    </section>
  )
}

function QuizCard({ quiz, n, language }: { quiz: MarkingQuiz; n: (value: number) => string; language: string }) {
  const { t } = useTranslation('marking')
  const pick = useBilingualLang()
  const title = pick(quiz.title)
  const headingId = `marking-quiz-${quiz.id}`
  return (
    <li className="card marking-quiz">
      <h3 id={headingId} lang={title.lang}>
        {title.text}
      </h3>
      <p className="muted">
        {t('home.questions', { count: quiz.questions, number: n(quiz.questions) })}
        {' · '}
        {t('home.last_activity', { time: formatDateTime(quiz.last_activity, language) })}
      </p>
      <dl className="marking-quiz__counts">
        {COUNTS.map((count) => (
          <div key={count}>
            <dt>{t(`home.${count}`)}</dt>
            <dd>{n(quiz[count])}</dd>
          </div>
        ))}
      </dl>
      <Link
        className={buttonClass({ variant: quiz.to_mark > 0 ? 'primary' : 'plain', small: true })}
        to={paths.markingQuiz(quiz.id)}
        aria-describedby={headingId}
      >
        {t(quiz.to_mark > 0 ? 'home.mark' : 'home.open_quiz')}
      </Link>
    </li>
  )
}
