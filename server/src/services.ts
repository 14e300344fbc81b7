import { createAttemptSessionService } from './attempts/attempt-session.service'
import { createAttemptLifecycle } from './attempts/attempts.service'
import { createCurrentQuestions } from './attempts/current-questions'
import { createNewAttempts } from './attempts/new-attempt'
import { createSubmitService } from './attempts/submit.service'
import type { FastifyBaseLogger } from 'fastify'
import type { AppContext } from './context'
import { createLiveService } from './live/live.service'
import { createPracticeService } from './practice/practice.service'
import { createQuestionPapers } from './questions/question-papers'
import { createShowLog } from './questions/show-log'
import { createQuizService } from './quizzes/quizzes.service'
import { createResultsService } from './results/results.service'

/**
 * The services that hold state across requests, built once per app and handed to the route plugins: one
 * question-paper cache and one cache of quizzes' current papers per process (starts and the learners' list read it), and one
 * attempt lifecycle that the quizzes list, results and practice settle expired attempts through
 * (docs/decisions/024-one-home-for-attempts.md), and one log of the questions shown to learners, written
 * after the starts (questions/show-log.ts; the app flushes it when it closes).
 */
export function createServices(context: AppContext, log: Pick<FastifyBaseLogger, 'error'>) {
  const papers = createQuestionPapers()
  const lifecycle = createAttemptLifecycle({ ...context, papers })
  const currentQuestions = createCurrentQuestions()
  const shows = createShowLog(context.database.db, log)
  const newAttempts = createNewAttempts({ papers, currentQuestions, shows })
  const live = createLiveService({ ...context, lifecycle })
  return {
    lifecycle,
    shows,
    session: createAttemptSessionService({ ...context, papers, lifecycle, newAttempts }),
    submit: createSubmitService({ ...context, papers, lifecycle, newAttempts }),
    quizzes: createQuizService({ ...context, lifecycle, currentQuestions, live }),
    live,
    results: createResultsService({ ...context, lifecycle }),
    practice: createPracticeService(context),
  }
}

export type Services = ReturnType<typeof createServices>
