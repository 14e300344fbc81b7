import { createWorkerPool, PoolBusy, WorkerRefused, workerEntry, type WorkerPoolOptions } from '../../lib/worker-pool'
import type { ReadJob, ReadResult, SettleJob, SettleResult, WorkerJob } from './read-job'

// Reading a file is CPU work of seconds: bounded worker threads, a queue, a timeout, a heap cap (docs/decisions/043).

export type ReadPoolOptions = WorkerPoolOptions
export { PoolBusy, WorkerRefused as ReadRefused }

const entry = workerEntry(import.meta.url, './import-worker.ts', './imports/import-worker.js')

export function createReadPool(options: ReadPoolOptions) {
  const pool = createWorkerPool<WorkerJob, ReadResult | SettleResult>(entry, options)
  return {
    read: (job: ReadJob) => pool.run({ kind: 'read', job }) as Promise<ReadResult>,
    settle: (job: SettleJob) => pool.run({ kind: 'settle', job }, { first: true }) as Promise<SettleResult>,
    load: pool.load,
    close: pool.close,
  }
}

export type ReadPool = ReturnType<typeof createReadPool>

const shared = new Map<string, ReadPool>()

// One per process: the apps built in one process (tests build many) reuse workers that have loaded the readers.
export function sharedReadPool(options: ReadPoolOptions): ReadPool {
  const key = JSON.stringify(options)
  let pool = shared.get(key)
  if (!pool) shared.set(key, (pool = createReadPool(options)))
  return pool
}
