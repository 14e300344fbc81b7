import type { OptionLabels } from '@quiz/contracts'
import { decodeLimits } from '../lib/decode-gate'
import { createWorkerPool, PoolBusy, workerEntry, type WorkerPool } from '../lib/worker-pool'
import { RateLimited } from '../http/errors'
import { readSheet, REFUSAL_MESSAGES, type SheetReadResult } from './reader/read-sheet'
import { readingSet, type RosterPlace } from './scan-reading'
import { blankLayout, setLayout, type SittingSetPlan } from './sitting-sets'

// A sheet is read in a worker thread: its decode waits for the process's decode gate there, and its seconds of pixel
// work never hold the event loop (docs/decisions/060).

export interface SheetJob {
  photo: Uint8Array
  secret: string
  sittingId: number
  plans: SittingSetPlan[]
  labels: OptionLabels
  roster: Map<number, RosterPlace>
}

/** In the worker: a roster sheet's questions are those of its roll's set, a blank sheet's those of every set. */
export function readSheetJob({ photo, secret, sittingId, plans, labels, roster }: SheetJob): Promise<SheetReadResult> {
  return readSheet(Buffer.from(photo.buffer, photo.byteOffset, photo.byteLength), {
    secret,
    sittingId,
    layoutFor: (code) => {
      const set = readingSet(code, roster)
      const plan = set && plans.find((candidate) => candidate.set === set)
      return plan ? setLayout(plan, labels, plans.length) : blankLayout(plans, labels)
    },
  })
}

/** As many workers as decodes at once; a photo past 30 s (its decode is stopped at 10) is refused. */
export const sheetReadPool = { workers: decodeLimits.atOnce, timeoutMs: 30_000, queue: 64, memoryMb: 256 }
let pool: WorkerPool<SheetJob, SheetReadResult> | undefined

/** Started on the first sheet and shared by every app of the process (tests build many). */
export async function readSheetInWorker(job: SheetJob): Promise<SheetReadResult> {
  pool ??= createWorkerPool(
    workerEntry(import.meta.url, './sheet-worker.ts', './sittings/sheet-worker.js'),
    sheetReadPool,
  )
  try {
    return await pool.run(job)
  } catch (error) {
    if (error instanceof PoolBusy)
      throw new RateLimited(30, 'Too many photos are being read: send this one again shortly.')
    return { ok: false, refusal: 'too_costly', message: REFUSAL_MESSAGES.too_costly }
  }
}
