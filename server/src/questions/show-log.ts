import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import { inInstituteScope } from '../db/institute-jobs'
import { outsideRequestScope, sessionInstitute } from '../db/request-scope'
import type { DB } from '../db/schema'
import {
  ensureShownSet,
  findShownSets,
  lastShown,
  recordSetsShown,
  recordShown,
  type SetShown,
  type Shown,
} from './question-shows.repository'

// A storm's writes wait for its end instead of competing with its starts; a crash loses at most MAX_WAIT_MS.
const QUIET_MS = 250
const MAX_WAIT_MS = 2_000
const FLUSH_AT_ROWS = 100_000
// On SQLite a transaction holds the one writer: a 100,000-row one would hold starts up for a second.
const ROWS_PER_TRANSACTION = 2_000

interface QuestionSet {
  key: string
  ids: readonly number[]
}

interface Held {
  questions: Map<number, Map<number, number>>
  sets: Map<number, Map<string, number>>
  setsByKey: Map<string, QuestionSet>
  rows: number
}

const nothingHeld = (): Held => ({ questions: new Map(), sets: new Map(), setsByKey: new Map(), rows: 0 })

type ShowLogOfInstitute = ReturnType<typeof createInstituteShowLog>

/**
 * Written after the starts in batches, not in each start's transaction (docs/decisions/039); held apart by the
 * institute of the request that recorded them, and each institute's written in its scope (docs/decisions/098).
 */
export function createShowLog(db: Kysely<DB>, log: { error: (object: unknown, message: string) => void }) {
  // Keyed by the institute of the scope, none (undefined) where none is entered (a lone institute on SQLite).
  const logs = new Map<number | undefined, ShowLogOfInstitute>()
  const logOfScope = () => {
    const institute = sessionInstitute()
    let found = logs.get(institute)
    if (!found) {
      const inScope = <T>(work: () => Promise<T>) =>
        institute === undefined ? outsideRequestScope(work) : inInstituteScope('show log', institute, work)
      logs.set(institute, (found = createInstituteShowLog(db, log, inScope)))
    }
    return found
  }
  return {
    record: (userId: number, questionIds: readonly number[], at: number) =>
      logOfScope().record(userId, questionIds, at),
    recordSet: (userId: number, questionIds: readonly number[], at: number) =>
      logOfScope().recordSet(userId, questionIds, at),
    lastShown: (trx: Kysely<DB>, userId: number, questionIds: readonly number[]) =>
      logOfScope().lastShown(trx, userId, questionIds),
    flush: async () => {
      await Promise.all([...logs.values()].map((held) => held.flush()))
    },
  }
}

function createInstituteShowLog(
  db: Kysely<DB>,
  log: { error: (object: unknown, message: string) => void },
  inScope: <T>(work: () => Promise<T>) => Promise<T>,
) {
  let waiting = nothingHeld()
  let writing = nothingHeld()
  let timer: NodeJS.Timeout | null = null
  let waitingSince = 0
  let lastRecordAt = 0
  let flushing: Promise<void> = Promise.resolve()
  /** By the caller's array, so that a paper's cached array costs its digest once, not at every start. */
  const setOfArray = new WeakMap<readonly number[], QuestionSet>()
  const setIds = new Map<string, number>()

  function setOf(questionIds: readonly number[]): QuestionSet {
    let set = setOfArray.get(questionIds)
    if (!set) {
      const ids = [...new Set(questionIds)].sort((a, b) => a - b)
      set = { key: createHash('sha256').update(ids.join(',')).digest('hex'), ids }
      setOfArray.set(questionIds, set)
    }
    return set
  }

  function addQuestion(into: Held, userId: number, questionId: number, at: number) {
    let mine = into.questions.get(userId)
    if (!mine) into.questions.set(userId, (mine = new Map()))
    const before = mine.get(questionId)
    if (before === undefined) into.rows++
    if (before === undefined || before < at) mine.set(questionId, at)
  }

  function addSet(into: Held, userId: number, set: QuestionSet, at: number) {
    into.setsByKey.set(set.key, set)
    let mine = into.sets.get(userId)
    if (!mine) into.sets.set(userId, (mine = new Map()))
    const before = mine.get(set.key)
    if (before === undefined) into.rows++
    if (before === undefined || before < at) mine.set(set.key, at)
  }

  async function ensureSets(shows: readonly { key: string; at: number }[], setsByKey: Map<string, QuestionSet>) {
    const firstAt = new Map<string, number>()
    for (const { key, at } of shows) if (!setIds.has(key) && !firstAt.has(key)) firstAt.set(key, at)
    if (firstAt.size === 0) return
    for (const [key, id] of await findShownSets(db, [...firstAt.keys()])) setIds.set(key, id)
    for (const key of [...firstAt.keys()].sort()) {
      if (setIds.has(key)) continue
      const id = await db
        .transaction()
        .execute((trx) => ensureShownSet(trx, key, setsByKey.get(key)!.ids, firstAt.get(key)!))
      setIds.set(key, id)
    }
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer)
    timer = null
    flushing = flushing.then(() => inScope(writeWaiting))
    return flushing
  }

  async function writeWaiting() {
    if (waiting.rows === 0) return
    const taken = waiting
    writing = taken
    waiting = nothingHeld()
    const shows: Shown[] = []
    for (const [userId, mine] of taken.questions) {
      for (const [questionId, at] of mine) shows.push({ userId, questionId, at })
    }
    const setShows: { userId: number; key: string; at: number }[] = []
    for (const [userId, mine] of taken.sets) for (const [key, at] of mine) setShows.push({ userId, key, at })
    let written = 0
    let setsWritten = 0
    try {
      for (; written < shows.length; written += ROWS_PER_TRANSACTION) {
        const chunk = shows.slice(written, written + ROWS_PER_TRANSACTION)
        await db.transaction().execute((trx) => recordShown(trx, chunk))
        await new Promise((resolve) => setImmediate(resolve))
      }
      await ensureSets(setShows, taken.setsByKey)
      for (; setsWritten < setShows.length; setsWritten += ROWS_PER_TRANSACTION) {
        const chunk: SetShown[] = setShows
          .slice(setsWritten, setsWritten + ROWS_PER_TRANSACTION)
          .map(({ userId, key, at }) => ({ userId, setId: setIds.get(key)!, at }))
        await db.transaction().execute((trx) => recordSetsShown(trx, chunk))
        await new Promise((resolve) => setImmediate(resolve))
      }
    } catch (error) {
      const rows = shows.length - written + setShows.length - setsWritten
      log.error({ err: error, rows }, 'shown questions not written; kept for the next flush')
      for (const { userId, questionId, at } of shows.slice(written)) addQuestion(waiting, userId, questionId, at)
      for (const { userId, key, at } of setShows.slice(setsWritten)) {
        addSet(waiting, userId, taken.setsByKey.get(key)!, at)
      }
      schedule()
    } finally {
      writing = nothingHeld()
    }
  }

  function schedule() {
    if (waiting.rows >= FLUSH_AT_ROWS) return void flush()
    lastRecordAt = performance.now()
    if (timer) return
    waitingSince = lastRecordAt
    timer = setTimeout(whenDue, QUIET_MS).unref()
  }

  function whenDue() {
    const due = Math.min(lastRecordAt + QUIET_MS, waitingSince + MAX_WAIT_MS) - performance.now()
    if (due > 0) timer = setTimeout(whenDue, due).unref()
    else void flush()
  }

  function mergeHeld(held: Held, userId: number, wanted: readonly number[], shown: Map<number, number>) {
    const questions = held.questions.get(userId)
    if (questions) {
      for (const questionId of wanted) {
        const at = questions.get(questionId)
        if (at !== undefined && at > (shown.get(questionId) ?? -1)) shown.set(questionId, at)
      }
    }
    const sets = held.sets.get(userId)
    if (!sets) return
    const isWanted = new Set(wanted)
    for (const [key, at] of sets) {
      for (const questionId of held.setsByKey.get(key)!.ids) {
        if (isWanted.has(questionId) && at > (shown.get(questionId) ?? -1)) shown.set(questionId, at)
      }
    }
  }

  return {
    record(userId: number, questionIds: readonly number[], at: number) {
      for (const questionId of questionIds) addQuestion(waiting, userId, questionId, at)
      schedule()
    },
    recordSet(userId: number, questionIds: readonly number[], at: number) {
      if (questionIds.length === 0) return
      addSet(waiting, userId, setOf(questionIds), at)
      schedule()
    },
    // What waits or is being written here counts too, read before and after the database (a flush may commit).
    async lastShown(trx: Kysely<DB>, userId: number, questionIds: readonly number[]) {
      const before = [writing, waiting]
      const shown = await lastShown(trx, userId, questionIds)
      for (const held of new Set([...before, writing, waiting])) mergeHeld(held, userId, questionIds, shown)
      return shown
    },
    flush,
  }
}

export type ShowLog = ReturnType<typeof createShowLog>
