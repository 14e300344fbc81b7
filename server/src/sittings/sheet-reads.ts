import type { OptionLabels } from '@quiz/contracts'
import { decodeLimits } from '../lib/decode-gate'
import { createWorkerPool, PoolBusy, workerEntry, type WorkerPool } from '../lib/worker-pool'
import { RateLimited } from '../http/errors'
import { readSheet, REFUSAL_MESSAGES, type SheetReadResult } from './reader/read-sheet'
import { readPageOrSheet, type PageOrSheetResult } from './reader/read-page-or-sheet'
import { drawReaderView } from './reader/reader-view'
import { readingSet, type RosterPlace } from './scan-reading'
import { blankLayout, hasSheet, setLayout, type SittingSetPlan } from './sitting-sets'
import type { SheetCode } from './sheet/sheet-code'
import { printedLearner } from './booklet/booklet-code'
import type { SheetLayout } from './sheet/sheet-layout'

// Sheets are read in a worker thread behind the decode gate: pixel work never holds the event loop (060).

export interface SheetJob {
  photo: Uint8Array
  secret: string
  sittingId: number
  plans: SittingSetPlan[]
  labels: OptionLabels
  roster: Map<number, RosterPlace>
}

/** A roster sheet's questions are those of its roll's set, a blank sheet's those of every set. */
const sheetLayoutFor =
  ({ plans, labels, roster }: Omit<SheetJob, 'photo' | 'secret' | 'sittingId'>) =>
  (code: SheetCode) => {
    // A written-only paper prints no sheet (its rows would be none); such a code reads no answers.
    if (!hasSheet(plans)) return null
    const set = readingSet(code, roster)
    const plan = set && plans.find((candidate) => candidate.set === set)
    return plan ? setLayout(plan, labels, plans.length) : blankLayout(plans, labels)
  }

const bufferOf = (photo: Uint8Array) => Buffer.from(photo.buffer, photo.byteOffset, photo.byteLength)

export function readSheetJob(job: SheetJob): Promise<SheetReadResult> {
  return readSheet(bufferOf(job.photo), {
    secret: job.secret,
    sittingId: job.sittingId,
    layoutFor: sheetLayoutFor(job),
  })
}

/** The reader's view of a kept photo, for support (docs/decisions/066): drawn in a worker as a sheet is read. */
export interface ReaderViewJob {
  view: true
  photo: Uint8Array
  layout: SheetLayout | null
}
type ViewResult = Uint8Array | string

/** A photo sent to the "Scan sheets" place: a booklet page or an answer sheet of the sitting (decision 075). */
export interface PageOrSheetJob extends SheetJob {
  pageOrSheet: true
  /** Written question numbers by set letter, every set's together, and each roster learner's set. */
  numbersBySet: Record<string, number[]>
  union: number[]
  setOfLearner: Record<number, string>
}

export function readPageOrSheetJob(job: PageOrSheetJob): Promise<PageOrSheetResult> {
  return readPageOrSheet(bufferOf(job.photo), {
    secret: job.secret,
    sittingId: job.sittingId,
    numbersFor: (code) => {
      const learner = code.kind === 'roster' ? printedLearner(code, job.roster.values(), job.secret) : null
      const set = learner ? job.setOfLearner[learner.entry.user_id] : undefined
      return (set && job.numbersBySet[set]) || job.union
    },
    layoutFor: sheetLayoutFor(job),
  })
}

type Job = SheetJob | ReaderViewJob | PageOrSheetJob
type JobResult = SheetReadResult | ViewResult | PageOrSheetResult

export function sheetWorkerJob(job: Job): Promise<JobResult> {
  if ('pageOrSheet' in job) return readPageOrSheetJob(job)
  if ('view' in job) return drawReaderView(bufferOf(job.photo), job.layout)
  return readSheetJob(job)
}

/** As many workers as decodes at once; a photo past 30 s (its decode is stopped at 10) is refused. */
export const sheetReadPool = { workers: decodeLimits.atOnce, timeoutMs: 30_000, queue: 64, memoryMb: 256 }
let pool: WorkerPool<Job, JobResult> | undefined

/** Started on the first sheet and shared by every app of the process (tests build many). */
function sheetPool() {
  pool ??= createWorkerPool(
    workerEntry(import.meta.url, './sheet-worker.ts', './sittings/sheet-worker.js'),
    sheetReadPool,
  )
  return pool
}

export async function readSheetInWorker(job: SheetJob): Promise<SheetReadResult> {
  const pool = sheetPool()
  try {
    return (await pool.run(job)) as SheetReadResult
  } catch (error) {
    if (error instanceof PoolBusy)
      throw new RateLimited(30, 'Too many photos are being read: send this one again shortly.')
    return { ok: false, refusal: 'too_costly', message: REFUSAL_MESSAGES.too_costly }
  }
}

/** One read of the photo, whichever it is (a photo past the pool's time is refused as a page: its code is unknown). */
export async function readPageOrSheetInWorker(job: PageOrSheetJob): Promise<PageOrSheetResult> {
  try {
    return (await sheetPool().run(job)) as PageOrSheetResult
  } catch (error) {
    if (error instanceof PoolBusy)
      throw new RateLimited(30, 'Too many photos are being read: send this one again shortly.')
    return { kind: 'page', result: { ok: false, refusal: 'too_costly', message: REFUSAL_MESSAGES.too_costly } }
  }
}

/** The reader's view as a JPEG, or null when the kept photo cannot be drawn (busy workers wait their turn). */
export async function readerViewInWorker(photo: Uint8Array, layout: SheetLayout | null): Promise<Buffer | null> {
  try {
    const drawn = await sheetPool().run({ view: true, photo, layout })
    return drawn instanceof Uint8Array ? Buffer.from(drawn.buffer, drawn.byteOffset, drawn.byteLength) : null
  } catch (error) {
    if (error instanceof PoolBusy)
      throw new RateLimited(30, 'Too many photos are being read: send this one again shortly.')
    return null
  }
}
