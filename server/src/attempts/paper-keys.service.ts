import { hkdfSync, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Clock } from '../lib/clock'
import type { DB } from '../db/schema'
import { paperColumns } from '../questions/paper-columns'
import { findOrInsertPaperKey } from './paper-keys.repository'

/** A live mock's paper keys (docs/decisions/069): a paper edited since it was fetched fails to decrypt. */
export function createPaperKeys({ clock }: { clock: Clock }) {
  const masters = new Map<number, Promise<Buffer>>()

  function masterKey(db: Kysely<DB>, quizId: number): Promise<Buffer> {
    let key = masters.get(quizId)
    if (!key) {
      key = findOrInsertPaperKey(db, quizId, randomBytes(32).toString('base64url'), clock.now()).then((text) =>
        Buffer.from(text, 'base64url'),
      )
      masters.set(quizId, key)
      key.catch(() => masters.delete(quizId))
    }
    return key
  }

  /** The key of the paper made of these revisions, whatever their order (shuffled papers share one). */
  async function keyOf(db: Kysely<DB>, quizId: number, revisionIds: readonly number[]): Promise<Buffer> {
    const info = `live-paper:${quizId}:${[...revisionIds].sort((a, b) => a - b).join(',')}`
    return Buffer.from(hkdfSync('sha256', await masterKey(db, quizId), Buffer.alloc(0), info, 32))
  }

  /** `attempt.paper_key`: base64url, for an attempt at a live mock from `starts_at` (the caller checks when). */
  async function attemptKey(db: Kysely<DB>, quizId: number, revisionIdsJson: string): Promise<string> {
    return (await keyOf(db, quizId, paperColumns.revisionIds(revisionIdsJson))).toString('base64url')
  }

  return { keyOf, attemptKey }
}

export type PaperKeys = ReturnType<typeof createPaperKeys>
