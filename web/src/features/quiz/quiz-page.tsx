import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import { Loading } from '../../components/ui/loading'
import { useBilingualLang } from '../../i18n/use-bilingual'
import { useRouteId } from '../../lib/route-id'
import { useSessionUser } from '../../session/use-session'
import { ConfirmSubmitDialog, LeaveDialog, ScoreDialog } from './exam-dialogs'
import { ExamHeader } from './exam-header'
import { ExamPalette } from './exam-palette'
import { ExamBar, ExamNotices, KeptNotice } from './exam-status'
import { useKeptPaper } from './kept-paper'
import { countStates, stateOf } from './palette-state'
import { QuestionNavigator } from './question-navigator'
import { AttemptRefused, ExamQuestion } from './exam-question'
import { quizQueries } from './quiz.api'
import { useAnswerSaving } from './use-answer-saving'
import { useAttemptSession } from './use-attempt-session'
import { useExamClock } from './use-exam-clock'
import { useLeaveWarning } from './use-leave-warning'
import { useOnline } from './use-online'
import { useQuestionNumber } from './use-question-number'
import { useQuestionTimer } from './use-question-timer'
import { useSubmitAttempt } from './use-submit-attempt'
import { useExamSections } from './use-exam-sections'
import { useWrittenHandIn, useWrittenQueue } from './written/use-written-queue'
import { combinedStatus } from './written/written-snapshot'
import { WrittenAfterHandIn } from './written/written-status'
import { NextSectionDialog, SectionNotices, SectionTabs } from './section-tabs'
import './quiz.css'
import './quiz.i18n'
import './sections.i18n'

/** The exam screen (WEB.md "Taking a quiz"): the attempt, its answers saved as they are given, and the hand-in. */
export function Component() {
  const { t } = useTranslation('quiz')
  const pickLang = useBilingualLang()
  const quizId = useRouteId('quizId')
  const userId = useSessionUser()?.userId ?? 0
  const online = useOnline()

  // The server's "time is over" (a 409 on a save) hands in through the submission, and the hand-in stops the
  // clock: both are made after the attempt, so these reach them through refs set once they exist.
  const deadlinePassed = useRef(() => undefined as void)
  const stopClock = useRef(() => undefined as void)
  const attempt = useAttemptSession(quizId, userId, () => deadlinePassed.current())
  const session = attempt.state === 'ready' ? attempt.session : null
  const queue = attempt.state === 'ready' ? attempt.queue : null
  const snapshot = useAnswerSaving(queue)
  const written = useWrittenQueue(
    session?.attempt.id ?? null,
    attempt.state === 'ready' ? { saved: attempt.session.attempt.written, fromDevice: attempt.fromDevice } : undefined,
  )
  const reportTime = useRef(() => undefined as void)
  const exam = useSubmitAttempt({
    quizId: quizId ?? 0,
    userId,
    attemptId: session?.attempt.id ?? null,
    queue,
    written: written.queue,
    beforeSubmit: () => reportTime.current(),
    onSubmitted: () => stopClock.current(),
  })
  const { submit, outcome } = exam
  useWrittenHandIn(written.queue, written.snapshot, outcome !== null)
  const clock = useExamClock(quizId ?? 0, session?.attempt ?? null, outcome === null, () => submit(true))
  useEffect(() => {
    deadlinePassed.current = () => submit(true)
    stopClock.current = clock.stop
  }, [clock.stop, submit])

  const inProgress = session !== null && outcome === null
  const blocker = useLeaveWarning(inProgress)
  const [confirmOpen, setConfirmOpen] = useState(false)
  const [nextOpen, setNextOpen] = useState(false)

  const total = session?.questions.length ?? 0
  const { number, goTo, questionRef } = useQuestionNumber(total)
  // A sectioned paper's tabs, section clock and "Next section"; null for any other paper, which looks as before.
  const paper = useExamSections({
    quizId: quizId ?? 0,
    session,
    running: inProgress,
    number,
    goTo,
    onLastTimeUp: () => submit(true),
    // Written answers' texts too: a closed section takes nothing more.
    saveAnswers: async () => ((await queue?.drain()) ?? true) && ((await written.queue?.drainTexts()) ?? true),
  })
  const question = useQuery({
    ...quizQueries.question(quizId ?? 0, session?.attempt.id ?? 0, number),
    enabled: session !== null && total > 0,
  })
  const kept = useKeptPaper(quizId ?? 0, inProgress ? session.attempt.id : null, total)
  const shown = question.data
  // A question counts as visited once it is on screen (a prefetch visits nothing: API.md "Exam feel").
  useEffect(() => {
    if (shown && inProgress) queue?.visit(shown.id)
  }, [inProgress, queue, shown])
  const questionTimer = useQuestionTimer(inProgress ? queue : null, shown?.id ?? null)
  useEffect(() => {
    reportTime.current = questionTimer
  }, [questionTimer])

  if (attempt.state === 'loading') return <Loading label={t('loading_quiz')} />
  if (attempt.state === 'error') return <AttemptRefused message={attempt.message} />

  const { answers, marked } = snapshot
  const questionIds = attempt.session.questions.map((entry) => entry.id)
  const progress = { ...snapshot, written: written.snapshot.answered }
  const counts = countStates(questionIds, progress)
  const handingIn = exam.sending || exam.awaitingConnection !== null || outcome !== null
  const locked = exam.timeUp || handingIn || (paper !== null && !paper.canAnswer(number))
  const isAnswered = (id: number) => answers[String(id)] != null || written.snapshot.answered[String(id)] === true
  // The navigator pages within the section on screen.
  const view = paper ? paper.sections[paper.viewing]! : { first: 1, count: total }
  const title = pickLang(attempt.session.title)

  return (
    <div className="quiz">
      <ExamHeader title={title.text} lang={title.lang} open={inProgress} />
      <ExamBar
        secondsLeft={paper?.timed ? paper.secondsLeft : clock.secondsLeft}
        saveStatus={combinedStatus(snapshot.status, written.snapshot.status)}
        pending={snapshot.pending + written.snapshot.textsLeft + written.snapshot.pagesLeft}
      />
      <ExamNotices
        online={online}
        finished={outcome !== null}
        timeUp={exam.timeUp}
        awaitingConnection={exam.awaitingConnection}
        reconnected={snapshot.reconnected}
      />
      {outcome === null && <KeptNotice kept={kept} total={total} />}

      {paper && (
        <>
          <SectionNotices paper={paper} />
          <SectionTabs
            paper={paper}
            questionIds={questionIds}
            isAnswered={isAnswered}
            onSelect={(index) => goTo(paper.sections[index]!.first)}
          />
        </>
      )}
      <ExamPalette
        counts={counts}
        navigator={(picked) => (
          <QuestionNavigator
            total={view.count}
            offset={view.first - 1}
            current={number - view.first}
            stateAt={(index) => stateOf(questionIds[index + view.first - 1] ?? 0, progress)}
            onSelect={(index) => {
              picked()
              goTo(index + view.first)
            }}
          />
        )}
      />

      <ExamQuestion
        question={question}
        online={online}
        number={number}
        total={total}
        answers={answers}
        marked={marked}
        queue={queue}
        written={written}
        locked={locked}
        questionRef={questionRef}
      />

      <div className="quiz__controls">
        <Button
          disabled={number <= 1 || (paper !== null && !paper.canVisit(number - 1))}
          onClick={() => goTo(number - 1, { scroll: true })}
        >
          {t('previous')}
        </Button>
        <Button
          disabled={number >= total || (paper !== null && !paper.canVisit(number + 1))}
          onClick={() => goTo(number + 1, { scroll: true })}
        >
          {t('next')}
        </Button>
        <Button variant="success" className="quiz__submit" disabled={handingIn} onClick={() => setConfirmOpen(true)}>
          {exam.sending ? t('submitting') : t('submit_quiz')}
        </Button>
      </div>
      {paper?.canMoveOn && (
        <Button
          className="section-next"
          disabled={handingIn || paper.moving === 'sending'}
          onClick={() => setNextOpen(true)}
        >
          {paper.moving === 'sending' ? t('moving', { ns: 'sections' }) : t('next_section', { ns: 'sections' })}
        </Button>
      )}
      {exam.failed && <Alert kind="error">{t('errors.submit_failed')}</Alert>}
      {paper && (
        <NextSectionDialog
          open={nextOpen && paper.canMoveOn && outcome === null}
          paper={paper}
          questionIds={questionIds}
          isAnswered={isAnswered}
          onCancel={() => setNextOpen(false)}
          onConfirm={() => {
            setNextOpen(false)
            void paper.moveOn()
          }}
        />
      )}

      <ConfirmSubmitDialog
        open={confirmOpen && !exam.timeUp && outcome === null}
        counts={counts}
        total={total}
        submitting={exam.sending}
        onCancel={() => setConfirmOpen(false)}
        onConfirm={() => {
          setConfirmOpen(false)
          submit(false)
        }}
      />
      <ScoreDialog outcome={outcome}>
        <WrittenAfterHandIn snapshot={written.snapshot} />
      </ScoreDialog>
      <LeaveDialog blocker={blocker} />
    </div>
  )
}
