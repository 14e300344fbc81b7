import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { lastShown, recordShown, type Shown } from './question-shows.repository'

/**
 * The log writes what it holds once no start has added to it for QUIET_MS, and at the latest MAX_WAIT_MS after the
 * oldest of it: in a start storm the writes wait for the storm's end instead of competing with its starts. A crash
 * loses at most MAX_WAIT_MS of it.
 */
const QUIET_MS = 250
const MAX_WAIT_MS = 2_000
/** Written at once when this many shows wait, whatever the time. */
const FLUSH_AT_ROWS = 100_000
/**
 * Rows per transaction: on SQLite a transaction holds the one writer, so a flush writes in short transactions and
 * lets the requests waiting for the writer in between (a 100,000-row transaction held starts up for a second).
 */
const ROWS_PER_TRANSACTION = 2_000

/**
 * The questions each learner was shown, kept in the process and written to question_shows a few times a second
 * in one statement per thousand rows, instead of a hundred rows inside every start's transaction: that write was
 * what kept a fixed paper's start from its earlier speed (issue 25, docs/decisions/039). Draws in this process
 * read the database and what waits here, so a learner's next draw never repeats their last one; a draw in
 * another process may miss the last two seconds of shows at most, and a crash loses them: shows only order a draw's
 * preference, and every attempt keeps its own paper.
 */
export function createShowLog(db: Kysely<DB>, log: { error: (object: unknown, message: string) => void }) {
  /** userId -> questionId -> shown at. */
  let waiting = new Map<number, Map<number, number>>()
  /** What a flush is writing now: still read by draws until it is committed. */
  let writing = new Map<number, Map<number, number>>()
  let rows = 0
  let timer: NodeJS.Timeout | null = null
  /** When the oldest of what waits was recorded (process time). */
  let waitingSince = 0
  let flushing: Promise<void> = Promise.resolve()

  function add(into: Map<number, Map<number, number>>, userId: number, questionId: number, at: number) {
    let mine = into.get(userId)
    if (!mine) into.set(userId, (mine = new Map()))
    const before = mine.get(questionId)
    if (before === undefined) rows++
    if (before === undefined || before < at) mine.set(questionId, at)
  }

  /** Takes what waits and writes it; what fails to be written waits again for the next flush. */
  function flush(): Promise<void> {
    if (timer) clearTimeout(timer)
    timer = null
    flushing = flushing.then(async () => {
      if (waiting.size === 0) return
      const taken = waiting
      writing = taken
      waiting = new Map()
      rows = 0
      const batch: Shown[] = []
      for (const [userId, mine] of taken) for (const [questionId, at] of mine) batch.push({ userId, questionId, at })
      let written = 0
      try {
        for (; written < batch.length; written += ROWS_PER_TRANSACTION) {
          const chunk = batch.slice(written, written + ROWS_PER_TRANSACTION)
          await db.transaction().execute((trx) => recordShown(trx, chunk))
          await new Promise((resolve) => setImmediate(resolve))
        }
      } catch (error) {
        log.error({ err: error, rows: batch.length - written }, 'shown questions not written; kept for the next flush')
        for (const { userId, questionId, at } of batch.slice(written)) add(waiting, userId, questionId, at)
        schedule()
      } finally {
        writing = new Map()
      }
    })
    return flushing
  }

  function schedule() {
    if (rows >= FLUSH_AT_ROWS) return void flush()
    const now = performance.now()
    if (!timer) waitingSince = now
    else clearTimeout(timer)
    const wait = Math.max(0, Math.min(QUIET_MS, waitingSince + MAX_WAIT_MS - now))
    timer = setTimeout(() => void flush(), wait).unref()
  }

  return {
    /** The learner was shown these questions at `at`. */
    record(userId: number, questionIds: readonly number[], at: number) {
      for (const questionId of questionIds) add(waiting, userId, questionId, at)
      schedule()
    },
    /** When the learner was last shown each of these questions: the database's rows and what still waits here. */
    async lastShown(trx: Kysely<DB>, userId: number, questionIds: readonly number[]) {
      const shown = await lastShown(trx, userId, questionIds)
      for (const held of [writing.get(userId), waiting.get(userId)]) {
        if (!held) continue
        for (const questionId of questionIds) {
          const at = held.get(questionId)
          if (at !== undefined && at > (shown.get(questionId) ?? -1)) shown.set(questionId, at)
        }
      }
      return shown
    },
    flush,
  }
}

export type ShowLog = ReturnType<typeof createShowLog>
