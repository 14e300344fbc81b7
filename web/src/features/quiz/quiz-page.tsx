import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Loading } from '../../components/ui/loading'
import { useBilingualLang } from '../../i18n/use-bilingual'
import { useRouteId } from '../../lib/route-id'
import { useSessionUser } from '../../session/use-session'
import { ExamControls } from './exam-controls'
import { ConfirmSubmitDialog, LeaveDialog, ScoreDialog } from './exam-dialogs'
import { ExamHeader } from './exam-header'
import { ExamNavigation } from './exam-navigation'
import { ExamBar, ExamNotices, KeptNotice } from './exam-status'
import { useKeptPaper } from './kept-paper'
import { countStates } from './palette-state'
import { AttemptRefused, ExamQuestion } from './exam-question'
import { quizQueries } from './quiz.api'
import { useExamAttempt } from './use-exam-attempt'
import { useLeaveWarning } from './use-leave-warning'
import { useOnline } from './use-online'
import { useQuestionNumber } from './use-question-number'
import { useQuestionTimer } from './use-question-timer'
import { useExamSections } from './use-exam-sections'
import { combinedStatus } from './written/written-snapshot'
import { WrittenAfterHandIn } from './written/written-status'
import { NextSectionDialog } from './section-tabs'
import { usePassageNumbers } from './use-passage-numbers'
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

  const reportTime = useRef(() => undefined as void)
  const { attempt, session, queue, snapshot, written, exam, clock } = useExamAttempt(quizId, userId, () =>
    reportTime.current(),
  )
  const { submit, outcome } = exam

  const inProgress = session !== null && outcome === null
  const blocker = useLeaveWarning(inProgress)
  const [confirmOpen, setConfirmOpen] = useState(false)
  const [nextOpen, setNextOpen] = useState(false)

  const total = session?.questions.length ?? 0
  const { number, goTo, questionRef, headingShown } = useQuestionNumber(total)
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
  const passageOf = usePassageNumbers(quizId ?? 0, session?.attempt.id ?? null, total)
  const shown = question.data
  // A question counts as visited once it is on screen (a prefetch visits nothing: API.md "Exam feel").
  useEffect(() => {
    if (shown && inProgress) queue?.visit(shown.id)
  }, [inProgress, queue, shown])
  useEffect(() => {
    if (shown) headingShown(shown.number)
  })
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

      <ExamNavigation
        paper={paper}
        questionIds={questionIds}
        progress={progress}
        counts={counts}
        number={number}
        total={total}
        isAnswered={isAnswered}
        goTo={goTo}
        passageOf={passageOf}
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

      <ExamControls
        number={number}
        total={total}
        paper={paper}
        exam={exam}
        handingIn={handingIn}
        goTo={goTo}
        onSubmit={() => setConfirmOpen(true)}
        onNextSection={() => setNextOpen(true)}
      />
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
