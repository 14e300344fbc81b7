import type { Kysely } from 'kysely'
import type { AppContext } from '../context'
import type { DB } from '../db/schema'
import {
  deletePaperAnswer,
  findPaperAnswer,
  insertPaperAnswer,
  listAnswerPageHashes,
  replaceAnswerPages,
} from './paper-answers.repository'
import { pageBytesOf, uploadQuotaExceeded } from './upload-quota.repository'

// Written answers on paper (docs/decisions/075): booklet pages join a learner's answers here, under the limits a
// phone's pages have (the decode gate, the refusals, the upload quota).

export { asKeptPage, keptPage, type KeptPage } from './answer-pages'

export interface PaperAnswer {
  questionId: number
  revisionId: number
  /** The answer's page images, in booklet order; none takes the answer away. */
  hashes: readonly string[]
}

export function createPaperAnswers({ config }: Pick<AppContext, 'config'>) {
  const quota = config.uploadQuotaBytesPerLearner

  async function joinOne(
    trx: Kysely<DB>,
    attemptId: number,
    { questionId, revisionId, hashes }: PaperAnswer,
    now: number,
  ) {
    const answer = await findPaperAnswer(trx, attemptId, questionId)
    if (answer && answer.status !== 'submitted') return
    if (!answer) {
      if (hashes.length === 0) return
      const id = await insertPaperAnswer(
        trx,
        { attempt_id: attemptId, question_id: questionId, revision_id: revisionId },
        now,
      )
      await replaceAnswerPages(trx, id, hashes, now)
    } else if (hashes.length === 0) await deletePaperAnswer(trx, answer.id)
    else if ((await listAnswerPageHashes(trx, answer.id)).join() !== hashes.join())
      await replaceAnswerPages(trx, answer.id, hashes, now)
  }

  /** Marked answers stay as they are; a change adding bytes past the learner's quota is refused as a phone's page. */
  async function joinPaperAnswers(
    trx: Kysely<DB>,
    learner: { userId: number; attemptId: number },
    answers: readonly PaperAnswer[],
    now: number,
  ) {
    const before = await pageBytesOf(trx, learner.userId)
    for (const answer of answers) await joinOne(trx, learner.attemptId, answer, now)
    const after = await pageBytesOf(trx, learner.userId)
    if (after > before && after > quota) throw uploadQuotaExceeded()
  }

  return { joinPaperAnswers }
}

export type PaperAnswers = ReturnType<typeof createPaperAnswers>
