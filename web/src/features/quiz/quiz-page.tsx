import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useBlocker, useNavigate, useParams, useSearchParams } from 'react-router'
import { ApiError } from '../../api/api-error'
import { practiceKeys } from '../../api/practice'
import { paths } from '../../lib/paths'
import { LanguageToggle } from '../../components/layout/language-switcher'
import { Alert } from '../../components/ui/alert'
import { Dialog } from '../../components/ui/dialog'
import { Loading } from '../../components/ui/loading'
import { useBilingual, useLanguage } from '../../i18n/use-bilingual'
import { digitsFor, formatNumber, formatScore } from '../../lib/format'
import { useSessionUser } from '../../session/use-session'
import { AnswerQueue, answerStorageKey, removeStaleAnswerEntries, type SaveStatus } from './answer-queue'
import { clockKeyPrefix, clockStorageKey, removeAnchor, writeAnchor } from './attempt-clock'
import { removeAttempt } from './attempt-store'
import { useKeptPaper } from './kept-paper'
import { openAttempt } from './open-attempt'
import { PaletteLegend } from './palette-legend'
import { countStates, stateOf } from './palette-state'
import { QuestionNavigator } from './question-navigator'
import { QuestionView } from './question-view'
import {
  isTransientError,
  quizKeys,
  quizQueries,
  saveAnswers,
  startOrResumeAttempt,
  submitQuiz,
  withRetry,
  type QuizSession,
  type SubmitResult,
} from './quiz.api'
import { formatClock, useCountdown } from './use-countdown'
import { useAnswerQueue } from './use-answer-queue'
import { useQuestionTimer } from './use-question-timer'
import './quiz.css'
import './quiz.i18n'

/** Starting or resuming is safe to repeat (a second call resumes the same attempt), so a dropped connection is retried. */
const LOAD_RETRY_DELAYS_MS = [1000, 3000]
/** Retries of a submission that got no answer or a 5xx, before the learner is asked to try again. */
const SUBMIT_RETRY_DELAYS_MS = [1000, 3000]

/** How long "Back online: N answers sent" stays on the screen. */
const RECONNECTED_NOTICE_MS = 10_000

type LoadErrorKey = 'errors.load_failed' | 'errors.no_attempts' | 'errors.paid_only' | 'errors.offline_not_kept'

type LoadState =
  | { state: 'loading' }
  | { state: 'error'; message: LoadErrorKey }
  | { state: 'ready'; session: QuizSession; queue: AnswerQueue }

function loadErrorMessage(error: unknown): LoadErrorKey {
  if (error instanceof ApiError && error.status === 403) {
    if (error.code === 'no_attempts_left') return 'errors.no_attempts'
    if (error.code === 'paid_access_required') return 'errors.paid_only'
  }
  if (isTransientError(error) && !navigator.onLine) return 'errors.offline_not_kept'
  return 'errors.load_failed'
}

function subscribeOnline(listener: () => void) {
  window.addEventListener('online', listener)
  window.addEventListener('offline', listener)
  return () => {
    window.removeEventListener('online', listener)
    window.removeEventListener('offline', listener)
  }
}

function useOnline() {
  return useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  )
}

function saveStatusKey(status: SaveStatus, pending: number) {
  if (status === 'offline') return 'save.offline'
  if (status === 'retrying') return 'save.retrying'
  if (status === 'failed') return 'save.failed'
  if (status === 'saving' || pending > 0) return 'save.saving'
  return 'save.saved'
}

export function Component() {
  const { t } = useTranslation('quiz')
  const language = useLanguage()
  const pick = useBilingual()
  const params = useParams()
  const quizId = Number(params.quizId)
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const [searchParams, setSearchParams] = useSearchParams()
  const online = useOnline()
  const userId = useSessionUser()?.userId ?? 0

  const [loaded, setLoad] = useState<LoadState>({ state: 'loading' })
  const validQuizId = Number.isInteger(quizId) && quizId > 0
  const load: LoadState = validQuizId ? loaded : { state: 'error', message: 'errors.load_failed' }
  const [confirmOpen, setConfirmOpen] = useState(false)
  const [submitting, setSubmitting] = useState(false)
  const [submitFailed, setSubmitFailed] = useState(false)
  const [timeUp, setTimeUp] = useState(false)
  // A submission made without a connection waits for it (decision 019); `automatic`: the time ran out.
  const [awaitingConnection, setAwaitingConnection] = useState<{ automatic: boolean } | null>(null)
  const [outcome, setOutcome] = useState<{ result: SubmitResult; automatic: boolean } | null>(null)
  const submittingRef = useRef(false)
  const finishedRef = useRef(false)
  const questionRef = useRef<HTMLDivElement>(null)

  // GET /api/quizzes/{id}/ starts or resumes the attempt: called once per quiz, outside any cache, or the device's
  // copy is opened (open-attempt.ts). The promise lives in a ref so StrictMode's second effect run (and a
  // re-render) subscribes to it instead of calling again.
  const started = useRef<{ quizId: number; promise: ReturnType<typeof openAttempt> } | null>(null)
  const submitRef = useRef<(automatic: boolean) => void>(() => undefined)
  const queueRef = useRef<{ attemptId: number; queue: AnswerQueue } | null>(null)

  useEffect(() => {
    if (!validQuizId) return
    if (started.current?.quizId !== quizId) {
      started.current = {
        quizId,
        promise: openAttempt(quizId, {
          userId,
          fetchSession: () => startOrResumeAttempt(quizId),
          retryDelaysMs: LOAD_RETRY_DELAYS_MS,
        }),
      }
    }
    let active = true
    started.current.promise.then(
      ({ session, fromDevice }) => {
        if (!active) return
        // Only the live subscription gets here, so the queue is made once per attempt.
        if (queueRef.current?.attemptId !== session.attempt.id) {
          removeStaleAnswerEntries(quizId, session.attempt.id)
          removeStaleAnswerEntries(quizId, session.attempt.id, localStorage, clockKeyPrefix)
          const queue = new AnswerQueue({
            storageKey: answerStorageKey(quizId, session.attempt.id),
            send: (batch) => saveAnswers(quizId, batch),
            isTransient: isTransientError,
            onFailure: (error) => {
              // 409: the deadline passed on the server (a phone that slept keeps a monotonic clock paused): hand in now.
              if (error instanceof ApiError && error.status === 409) submitRef.current(true)
            },
          })
          // Marks and visits come back too, so a reload or a second device shows the same palette. The device's
          // copy of the attempt is older than the queue's own entry, which is then the newest there is.
          if (!fromDevice || !queue.restored) queue.mergeServerState(session.attempt)
          queueRef.current = { attemptId: session.attempt.id, queue }
        }
        setLoad({ state: 'ready', session, queue: queueRef.current.queue })
      },
      (error: unknown) => {
        if (active) setLoad({ state: 'error', message: loadErrorMessage(error) })
      },
    )
    return () => {
      active = false
    }
  }, [quizId, userId, validQuizId])

  const session = load.state === 'ready' ? load.session : null
  const queue = load.state === 'ready' ? load.queue : null
  const snapshot = useAnswerQueue(queue)
  const { answers, marked, pending, status: saveStatus } = snapshot

  useEffect(() => {
    if (!queue) return
    queue.start()
    // Phones kill background tabs: send what is queued as soon as the page is hidden.
    const onHidden = () => {
      if (document.visibilityState === 'hidden') void queue.flush()
    }
    document.addEventListener('visibilitychange', onHidden)
    return () => {
      document.removeEventListener('visibilitychange', onHidden)
      void queue.flush()
      queue.pause()
    }
  }, [queue])

  const reportTimeRef = useRef<() => void>(() => undefined)
  const submit = useCallback(
    async (automatic: boolean) => {
      if (!session || !queue || submittingRef.current || finishedRef.current) return
      reportTimeRef.current()
      setConfirmOpen(false)
      setSubmitFailed(false)
      // The submission carries every answer, so autosave stops meanwhile (a save racing the submit would be refused).
      queue.pause()
      if (!navigator.onLine) {
        // Nothing would get through: the answers stay on the device and go when the connection returns.
        setAwaitingConnection({ automatic })
        return
      }
      setAwaitingConnection(null)
      submittingRef.current = true
      setSubmitting(true)
      try {
        const result = await withRetry(
          () =>
            submitQuiz(quizId, {
              answers: queue.allAnswers(),
              ...queue.pendingExamState(),
              attempt_id: session.attempt.id,
            }),
          SUBMIT_RETRY_DELAYS_MS,
        )
        finishedRef.current = true
        queue.clear()
        // The paper and the countdown leave the device with the attempt.
        removeAnchor(clockStorageKey(quizId, session.attempt.id))
        void removeAttempt(userId, quizId, session.attempt.id).catch(() => undefined)
        setOutcome({ result, automatic })
        void queryClient.invalidateQueries({ queryKey: quizKeys.list })
        void queryClient.invalidateQueries({ queryKey: quizKeys.results })
        // The wrong and unanswered questions are now due for practice: the nav's count changes.
        void queryClient.invalidateQueries({ queryKey: practiceKeys.deck })
      } catch {
        setSubmitFailed(true)
        queue.start()
      } finally {
        submittingRef.current = false
        setSubmitting(false)
      }
    },
    [quizId, queryClient, queue, session, userId],
  )
  useEffect(() => {
    submitRef.current = (automatic) => {
      if (automatic) setTimeUp(true)
      void submit(automatic)
    }
  }, [submit])

  // A submission that found no connection, or the time running out while offline: hand in as soon as the
  // connection returns, without waiting for a tap. true: the time ran out; null: nothing waits.
  const handInAutomatically = awaitingConnection ? awaitingConnection.automatic : timeUp && submitFailed ? true : null
  useEffect(() => {
    if (handInAutomatically === null || outcome) return
    const retry = () => {
      if (handInAutomatically) submitRef.current(true)
      else void submit(false)
    }
    window.addEventListener('online', retry)
    return () => window.removeEventListener('online', retry)
  }, [handInAutomatically, outcome, submit])

  // The countdown's anchor, kept on the device once a second, so a reload offline continues from it.
  const anchoredSecond = useRef<number | null>(null)
  const keepClock = useCallback(
    (left: number) => {
      if (!session || finishedRef.current || Math.ceil(left) === anchoredSecond.current) return
      anchoredSecond.current = Math.ceil(left)
      writeAnchor(clockStorageKey(quizId, session.attempt.id), { remaining: left, at: Date.now() })
    },
    [quizId, session],
  )

  // Once the attempt is handed in the clock stops where it was (null ends the countdown without resetting it).
  const secondsLeft = useCountdown(
    session && !outcome ? session.attempt.remaining_seconds : null,
    () => submitRef.current(true),
    { key: session?.attempt.id, onTick: keepClock },
  )

  const reconnected = snapshot.reconnected
  useEffect(() => {
    if (!reconnected || !queue) return
    const timer = setTimeout(() => queue.dismissReconnected(), RECONNECTED_NOTICE_MS)
    return () => clearTimeout(timer)
  }, [queue, reconnected])

  const inProgress = load.state === 'ready' && outcome === null
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => inProgress && currentLocation.pathname !== nextLocation.pathname,
  )

  useEffect(() => {
    if (!inProgress) return
    // Closing or reloading the tab: browsers show their own prompt and ignore custom text.
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault()
      event.returnValue = ''
    }
    window.addEventListener('beforeunload', onBeforeUnload)
    return () => window.removeEventListener('beforeunload', onBeforeUnload)
  }, [inProgress])

  const total = session?.questions.length ?? 0
  const requested = Number.parseInt(searchParams.get('q') ?? '1', 10)
  const currentNumber = Math.min(Math.max(Number.isNaN(requested) ? 1 : requested, 1), Math.max(total, 1))
  const attemptId = session?.attempt.id ?? 0

  const question = useQuery({
    ...quizQueries.question(quizId, attemptId, currentNumber),
    enabled: session !== null && total > 0,
  })

  const kept = useKeptPaper(quizId, inProgress && session ? session.attempt.id : null, total)

  const shownQuestionId = question.data?.id ?? null
  // A question counts as visited once it is on screen (a prefetch visits nothing: API.md "Exam feel").
  useEffect(() => {
    if (shownQuestionId !== null && inProgress) queue?.visit(shownQuestionId)
  }, [inProgress, queue, shownQuestionId])
  const reportTime = useQuestionTimer(inProgress ? queue : null, shownQuestionId)
  useEffect(() => {
    reportTimeRef.current = reportTime
  }, [reportTime])

  const goTo = (number: number, { scroll = false } = {}) => {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current)
        next.set('q', String(number))
        return next
      },
      { replace: true },
    )
    if (scroll && questionRef.current && questionRef.current.getBoundingClientRect().top < 0) {
      questionRef.current.scrollIntoView({ block: 'start' })
    }
  }

  if (load.state === 'loading') return <Loading label={t('loading_quiz')} />
  if (load.state === 'error') {
    return (
      <div className="card center-card">
        <Alert kind="error">
          {t(load.message)} {load.message === 'errors.paid_only' && <Link to={paths.plans()}>{t('see_plans')}</Link>}
        </Alert>
        <Link className="btn btn--primary" to={paths.home()}>
          {t('back_to_dashboard')}
        </Link>
      </div>
    )
  }

  const { session: quiz } = load
  const questionIds = quiz.questions.map((entry) => entry.id)
  const stateAt = (index: number) => stateOf(questionIds[index] ?? 0, snapshot)
  const counts = countStates(questionIds, snapshot)
  const answeredCount = counts.answered + counts.answered_marked
  const shown = question.data
  const shownMarked = shown ? marked[String(shown.id)] === true : false
  const shownAnswered = shown ? answers[String(shown.id)] != null : false
  const locked = timeUp || submitting || awaitingConnection !== null || outcome !== null
  const lowTime = secondsLeft !== null && secondsLeft <= 60
  const timeNotice =
    secondsLeft === null
      ? ''
      : secondsLeft <= 60
        ? t('timer.one_minute_left')
        : secondsLeft <= 300
          ? t('timer.five_minutes_left')
          : ''
  const result = outcome?.result

  return (
    <div className="quiz">
      <div className="quiz__header">
        <h1 className="quiz__title">{pick(quiz.title)}</h1>
        <LanguageToggle />
      </div>

      <div className="quiz__bar">
        <p className={`quiz__timer${lowTime ? ' quiz__timer--low' : ''}`}>
          <span className="quiz__timer-label">{t('timer.label')}</span>{' '}
          <span
            role="timer"
            aria-label={t('timer.aria', { time: formatClock(secondsLeft ?? 0) })}
            className="quiz__clock"
          >
            {digitsFor(formatClock(secondsLeft ?? 0), language)}
          </span>
        </p>
        <p className={`quiz__save quiz__save--${saveStatus}`} role="status">
          {t(saveStatusKey(saveStatus, pending), { count: pending })}
        </p>
      </div>
      <p className="visually-hidden" aria-live="polite">
        {timeNotice}
      </p>

      {awaitingConnection && !outcome ? (
        <Alert kind="info">{t(awaitingConnection.automatic ? 'time_up_offline' : 'submit_offline')}</Alert>
      ) : (
        <>
          {!online && <Alert kind="info">{t('offline')}</Alert>}
          {timeUp && !outcome && <Alert kind="info">{t('time_up_submitting')}</Alert>}
        </>
      )}
      {reconnected && online && !outcome && (
        <Alert kind="success">
          {reconnected.sent > 0 ? t('back_online.sent', { count: reconnected.sent }) : t('back_online.saved')}
        </Alert>
      )}
      {kept !== null && !outcome && (
        <p className="quiz__kept muted">{kept >= total ? t('kept.all') : t('kept.some', { kept, total })}</p>
      )}

      <QuestionNavigator
        total={total}
        current={currentNumber - 1}
        stateAt={stateAt}
        onSelect={(index) => goTo(index + 1)}
      />
      <details className="quiz__legend">
        <summary>{t('legend.title')}</summary>
        <PaletteLegend counts={counts} className="legend--compact" />
      </details>

      <div ref={questionRef} className="quiz__question">
        {question.isError ? (
          <div className="card">
            <Alert kind="error">
              {t(online ? 'errors.question_failed' : 'errors.question_not_kept', { number: currentNumber })}
            </Alert>
            <button type="button" className="btn" onClick={() => void question.refetch()}>
              {t('retry')}
            </button>
          </div>
        ) : question.data ? (
          <QuestionView
            question={question.data}
            total={total}
            selectedOptionId={answers[String(question.data.id)]}
            onSelect={(optionId) => queue?.set(question.data.id, optionId)}
            disabled={locked}
          />
        ) : (
          <div className="card">
            <Loading label={t('loading_question', { number: currentNumber })} />
          </div>
        )}
      </div>

      <div className="quiz__review">
        <button
          type="button"
          className={`btn quiz__mark${shownMarked ? ' quiz__mark--on' : ''}`}
          aria-pressed={shownMarked}
          disabled={locked || !shown}
          onClick={() => shown && queue?.setMarked(shown.id, !shownMarked)}
        >
          {t('mark_for_review')}
        </button>
        <button
          type="button"
          className="btn"
          disabled={locked || !shownAnswered}
          onClick={() => shown && queue?.set(shown.id, null)}
        >
          {t('clear_response')}
        </button>
      </div>

      <div className="quiz__controls">
        <button
          type="button"
          className="btn"
          disabled={currentNumber <= 1}
          onClick={() => goTo(currentNumber - 1, { scroll: true })}
        >
          {t('previous')}
        </button>
        <button
          type="button"
          className="btn"
          disabled={currentNumber >= total}
          onClick={() => goTo(currentNumber + 1, { scroll: true })}
        >
          {t('next')}
        </button>
        <button
          type="button"
          className="btn btn--success quiz__submit"
          disabled={submitting || awaitingConnection !== null || outcome !== null}
          onClick={() => setConfirmOpen(true)}
        >
          {submitting ? t('submitting') : t('submit_quiz')}
        </button>
      </div>
      {submitFailed && <Alert kind="error">{t('errors.submit_failed')}</Alert>}

      <Dialog
        open={confirmOpen && !outcome}
        title={t('confirm.title')}
        onClose={() => setConfirmOpen(false)}
        actions={
          <>
            <button type="button" className="btn" onClick={() => setConfirmOpen(false)}>
              {t('cancel')}
            </button>
            <button type="button" className="btn btn--primary" onClick={() => void submit(false)} disabled={submitting}>
              {t('confirm.confirm')}
            </button>
          </>
        }
      >
        <p>{t('confirm.answered', { answered: answeredCount, total })}</p>
        <dl className="summary">
          <div>
            <dt>{t('summary.answered')}</dt>
            <dd>{formatNumber(counts.answered, language)}</dd>
          </div>
          <div>
            <dt>{t('summary.answered_marked')}</dt>
            <dd>{formatNumber(counts.answered_marked, language)}</dd>
          </div>
          <div>
            <dt>{t('summary.not_answered')}</dt>
            <dd>{formatNumber(counts.not_answered, language)}</dd>
          </div>
          <div>
            <dt>{t('summary.marked')}</dt>
            <dd>{formatNumber(counts.marked, language)}</dd>
          </div>
          <div>
            <dt>{t('summary.not_visited')}</dt>
            <dd>{formatNumber(counts.not_visited, language)}</dd>
          </div>
        </dl>
        <p>{t('confirm.irreversible')}</p>
      </Dialog>

      <Dialog
        open={result !== undefined}
        className="score-dialog"
        title={outcome?.automatic ? t('score.time_up_title') : t('score.title')}
        actions={
          result && (
            <>
              <Link className="btn" to={paths.report(result.attempt_id)}>
                {t('score.view_report')}
              </Link>
              <button type="button" className="btn btn--primary" onClick={() => navigate(paths.home())}>
                {t('back_to_dashboard')}
              </button>
            </>
          )
        }
      >
        {result && (
          <div className="score">
            <p className="score__label">{t('score.your_score')}</p>
            <p className="score__value">{formatScore(result.score, language)}</p>
            <dl className="score__counts">
              <div>
                <dt>{t('score.correct')}</dt>
                <dd>{formatNumber(result.correct, language)}</dd>
              </div>
              <div>
                <dt>{t('score.incorrect')}</dt>
                <dd>{formatNumber(result.incorrect, language)}</dd>
              </div>
              <div>
                <dt>{t('score.unanswered')}</dt>
                <dd>{formatNumber(result.unanswered, language)}</dd>
              </div>
            </dl>
            {result.late && <p className="muted">{t('score.late')}</p>}
          </div>
        )}
      </Dialog>

      <Dialog
        open={blocker.state === 'blocked'}
        title={t('leave.title')}
        onClose={() => blocker.reset?.()}
        actions={
          <>
            <button type="button" className="btn btn--primary" onClick={() => blocker.reset?.()}>
              {t('leave.stay')}
            </button>
            <button type="button" className="btn btn--danger" onClick={() => blocker.proceed?.()}>
              {t('leave.leave')}
            </button>
          </>
        }
      >
        <p>{t('leave.message')}</p>
      </Dialog>
    </div>
  )
}
