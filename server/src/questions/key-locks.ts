import type { Kysely } from 'kysely'
import type { Database } from '../db/database'
import type { DB } from '../db/schema'
import { shareLockRevisionsNoWait, waitForRevisionLocks } from './answer-keys.repository'

// PostgreSQL only (docs/decisions/036 "Finishing during a decision"); SQLite's write transactions run one at a time.

/** A key decision holds a revision's row: the finishing transaction rolls back, waits, and runs again. */
export class KeysBeingDecided extends Error {
  constructor(readonly revisionIds: readonly number[]) {
    super('A key decision on these revisions is being committed.')
  }
}

const LOCK_NOT_AVAILABLE = '55P03'

// NOWAIT: a finishing transaction holds rows the decision may be waiting for; waiting here would deadlock.
export async function lockRevisionKeys(trx: Kysely<DB>, revisionIds: readonly number[]): Promise<number[]> {
  try {
    const rows = await shareLockRevisionsNoWait(trx, revisionIds)
    return rows.flatMap((row) => (row.key_version > 0 ? [row.id] : []))
  } catch (error) {
    if ((error as { code?: unknown }).code === LOCK_NOT_AVAILABLE) throw new KeysBeingDecided(revisionIds)
    throw error
  }
}

// The wait holds no other lock, so it cannot deadlock, and the next run reads the decided key.
export async function retryAfterKeyDecisions<T>(database: Database, work: () => Promise<T>, tries = 10): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work()
    } catch (error) {
      if (!(error instanceof KeysBeingDecided) || attempt >= tries) throw error
      await waitForRevisionLocks(database.db, error.revisionIds)
    }
  }
}
