import type { QuizQuestion } from '@quiz/contracts'
import type { UseQueryResult } from '@tanstack/react-query'
import { lazy, Suspense, type Ref } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Alert } from '../../components/ui/alert'
import { Button, buttonClass } from '../../components/ui/button'
import { Loading } from '../../components/ui/loading'
import { paths } from '../../lib/paths'
import type { AnswerQueue, AnswerQueueSnapshot } from './answer-queue'
import { isAnswered } from './palette-state'
import { QuestionView } from './question-view'
import type { LoadErrorKey } from './use-attempt-session'
import type { WrittenQueue } from './written/written-queue'
import type { WrittenSnapshot } from './written/written-snapshot'

// Most papers have no written question: its screen (and the photo code behind it) loads when one is shown.
const WrittenAnswer = lazy(() =>
  import('./written/written-answer').then((module) => ({ default: module.WrittenAnswer })),
)
import './quiz.i18n'

interface ExamQuestionProps {
  question: UseQueryResult<QuizQuestion, unknown>
  online: boolean
  number: number
  total: number
  answers: AnswerQueueSnapshot['answers']
  marked: AnswerQueueSnapshot['marked']
  queue: AnswerQueue | null
  written: { queue: WrittenQueue | null; snapshot: WrittenSnapshot }
  /** No answer may be given or changed (time up, handed in, a section not open). */
  locked: boolean
  questionRef: Ref<HTMLDivElement>
}

/** The question on screen (or why it is not), with Mark for Review and Clear Response. */
export function ExamQuestion({
  question,
  online,
  number,
  total,
  answers,
  marked,
  queue,
  written,
  locked,
  questionRef,
}: ExamQuestionProps) {
  const { t } = useTranslation('quiz')
  const shown = question.data
  const shownMarked = shown ? marked[String(shown.id)] === true : false
  const shownAnswered = shown ? isAnswered(answers[String(shown.id)]) : false
  return (
    <>
      <div ref={questionRef} className="quiz__question">
        {question.isError ? (
          <div className="card">
            <Alert kind="error">{t(online ? 'errors.question_failed' : 'errors.question_not_kept', { number })}</Alert>
            <Button onClick={() => void question.refetch()}>{t('retry')}</Button>
          </div>
        ) : shown?.type === 'written' ? (
          <Suspense fallback={<Loading label={t('loading_question', { number })} />}>
            <WrittenAnswer
              key={shown.id}
              question={shown}
              total={total}
              state={written.snapshot.answers[String(shown.id)]}
              queue={written.queue}
              disabled={locked}
            />
          </Suspense>
        ) : shown ? (
          <QuestionView
            question={shown}
            total={total}
            selectedOptionId={optionIdOf(answers[String(shown.id)])}
            onSelect={(optionId) => queue?.set(shown.id, optionId)}
            answer={typedAnswerOf(answers[String(shown.id)])}
            onAnswer={(answer) => queue?.set(shown.id, answer)}
            disabled={locked}
          />
        ) : (
          <div className="card">
            <Loading label={t('loading_question', { number })} />
          </div>
        )}
      </div>

      <div className="quiz__review">
        <Button
          className={`quiz__mark${shownMarked ? ' quiz__mark--on' : ''}`}
          aria-pressed={shownMarked}
          disabled={locked || !shown}
          onClick={() => shown && queue?.setMarked(shown.id, !shownMarked)}
        >
          {t('mark_for_review')}
        </Button>
        {shown?.type !== 'written' && (
          <Button disabled={locked || !shownAnswered} onClick={() => shown && queue?.set(shown.id, null)}>
            {t('clear_response')}
          </Button>
        )}
      </div>
    </>
  )
}

/** The attempt could not be opened: why, and the way back (or to the plans when it is paid-only). */
export function AttemptRefused({ message }: { message: LoadErrorKey }) {
  const { t } = useTranslation('quiz')
  return (
    <div className="card center-card">
      <Alert kind="error">
        {t(message)} {message === 'errors.paid_only' && <Link to={paths.plans()}>{t('see_plans')}</Link>}
      </Alert>
      <Link className={buttonClass({ variant: 'primary' })} to={paths.home()}>
        {t('back_to_dashboard')}
      </Link>
    </div>
  )
}

type SavedAnswer = number | number[] | string | null | undefined

const optionIdOf = (answer: SavedAnswer) => (typeof answer === 'number' ? answer : null)
const typedAnswerOf = (answer: SavedAnswer) => (typeof answer === 'number' || answer === undefined ? null : answer)
