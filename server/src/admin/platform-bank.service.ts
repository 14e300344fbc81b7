import { bankMessages, type BankList, type BankListQuerySchema, type BankQuestion } from '@quiz/contracts'
import type { z } from 'zod'
import type { AuditActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import { Conflict } from '../http/errors'
import { questionNotFound } from './bank-reads'
import { findBankQuestion } from './bank.repository'
import type { BankService } from './bank.service'
import { recordPictureUses } from '../pictures/pictures.repository'
import { findPlatformSource, inPlatformBank, pictureHashesOf, readPlatformSource } from './platform-source'

type BankQuery = z.output<typeof BankListQuerySchema>

// An institute's admins read the platform's bank and copy from it (API.md "Institutes": Banks, docs/decisions/101):
// each read of the platform's rows in its scope, each write in the request's own institute.
export function createPlatformBankService({ database, bank }: Pick<AppContext, 'database'> & { bank: BankService }) {
  const { db } = database

  return {
    list: (query: BankQuery): Promise<BankList> => inPlatformBank(() => bank.list(query)),

    get: (questionId: number): Promise<BankQuestion> => inPlatformBank(() => bank.get(questionId)),

    /** A question of the institute's bank with the platform question's current revision, tags matched by name. */
    async copy(platformQuestionId: number, actor: AuditActor): Promise<BankQuestion> {
      const source = await readPlatformSource(db, platformQuestionId)
      await recordPictureUses(db, pictureHashesOf(source.content))
      return bank.create(
        { ...source.content, tags: source.tags, difficulty: source.difficulty as never, source: source.source },
        actor,
        { questionId: source.questionId, revision: source.revision },
      )
    },

    /** Takes the source's newer revision as a new revision of the copy; its tags, difficulty and source stay. */
    async updateFromSource(questionId: number, actor: AuditActor): Promise<BankQuestion> {
      const copy = await findBankQuestion(db, questionId)
      if (!copy) throw questionNotFound()
      if (copy.copied_from_question_id === null) throw new Conflict(bankMessages.notACopy, 'not_a_copy')
      const source = await findPlatformSource(db, copy.copied_from_question_id)
      if (!source) throw new Conflict(bankMessages.sourceGone, 'source_gone')
      if (source.revision === copy.copied_from_revision)
        throw new Conflict(bankMessages.noUpdateAvailable, 'no_update_available')
      const current = await bank.get(questionId)
      await recordPictureUses(db, pictureHashesOf(source.content))
      return bank.replace(
        questionId,
        { ...source.content, tags: current.tags, difficulty: current.difficulty, source: current.source },
        actor,
        { questionId: source.questionId, revision: source.revision },
      )
    },
  }
}

export type PlatformBankService = ReturnType<typeof createPlatformBankService>
