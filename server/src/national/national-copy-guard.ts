import { nationalMessages } from '@quiz/contracts'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context'
import { Conflict, NotFound } from '../http/errors'
import { nationalCopyOf, nationalQuestionCopyOf } from '../admin/national-copy.service'

// docs/decisions/102: an institute's admins must not read a national mock's paper before the common end (they could
// hand it to their learners), and never change it. One hook over the admin routes of a quiz or bank question, so
// that a route added later under those paths is held too.
const QUIZ_ROUTES = '/api/admin/quizzes/:id'
const QUESTION_ROUTES = '/api/admin/bank/questions/:id'
// A key decision re-scores the institute's learners alone, and through its board their national ranks.
const KEY_ROUTE = '/api/admin/questions/:questionId/key/'

export function registerNationalCopyGuard(app: FastifyInstance, context: Pick<AppContext, 'database' | 'clock'>) {
  app.addHook('preHandler', async (request) => {
    const url = request.routeOptions.url ?? ''
    if (url === KEY_ROUTE) {
      const questionId = Number((request.params as { questionId?: unknown }).questionId)
      if (Number.isSafeInteger(questionId) && (await nationalQuestionCopyOf(context, questionId)))
        throw new Conflict(nationalMessages.locked.en, 'national_mock_locked')
      return
    }
    const quizRoute = url.startsWith(QUIZ_ROUTES)
    if (!quizRoute && !url.startsWith(QUESTION_ROUTES)) return
    const id = Number((request.params as { id?: unknown }).id)
    if (!Number.isSafeInteger(id)) return
    const copy = quizRoute ? await nationalCopyOf(context, id) : await nationalQuestionCopyOf(context, id)
    if (!copy) return
    if (request.method === 'GET' || request.method === 'HEAD') {
      if (context.clock.now() < copy.endsAt) throw new NotFound()
      return
    }
    throw new Conflict(nationalMessages.locked.en, 'national_mock_locked')
  })
}
