import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import path from 'node:path'
import { Worker, type WorkerOptions } from 'node:worker_threads'
// Workers re-encode pictures with sharp: on glibc the main thread must hold libvips loaded before any worker loads it
// (sharp issue 2263), or a worker's exit unloads it under the others.
import 'sharp'
import type { ReadJob, ReadResult, SettleJob, SettleResult, WorkerJob } from './read-job'
import type { WorkerReply } from './import-worker'

// A small, bounded pool of import workers (docs/decisions/043): reading a file is CPU work of seconds that would
// stall every learner's request on the event loop, so it runs in worker threads, `workers` of them, each one file at
// a time. At most `queue` files wait for a worker; more are refused at once (PoolBusy). A file that takes longer
// than `timeoutMs`, or more heap than `memoryMb`, has its worker ended (another is started) and is refused
// (ReadRefused), never a 500 and never a stalled server.

export interface ReadPoolOptions {
  workers: number
  timeoutMs: number
  queue: number
  memoryMb: number
}

/** Every worker is reading and `queue` files already wait: 429, try again shortly. */
export class PoolBusy extends Error {}
/** The file took too long or too much memory, or its reading crashed: 400 `import_unreadable`. */
export class ReadRefused extends Error {
  constructor(readonly reason: 'timeout' | 'memory' | 'crashed') {
    super(`The import worker refused the file (${reason}).`)
  }
}

interface Task {
  job: WorkerJob
  resolve: (result: ReadResult | SettleResult) => void
  reject: (error: Error) => void
}

interface Slot {
  worker: Worker
  task: Task | null
  timer: NodeJS.Timeout | null
}

// Run from TypeScript source (vitest, tsx) the worker is the .ts file beside this one, started through tsx's API (on
// Node 20 a worker does not take `--import tsx` loaders for its own entry); run from the build (server/build.mjs
// bundles this module into dist/main.js) it is dist/imports/import-worker.js, plain JavaScript.
const fromSource = import.meta.url.endsWith('.ts')

function newWorker(options: WorkerOptions): Worker {
  if (!fromSource) return new Worker(new URL('./imports/import-worker.js', import.meta.url), options)
  const tsxDir = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'))
  const tsx = pathToFileURL(path.join(tsxDir, 'dist/esm/api/index.mjs')).href
  const entry = new URL('./import-worker.ts', import.meta.url).href
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}) })`
  return new Worker(boot, { ...options, eval: true })
}

export function createReadPool(options: ReadPoolOptions) {
  const slots = new Set<Slot>()
  const waiting: Task[] = []
  let closed = false

  function spawn(): Slot {
    const worker = newWorker({ resourceLimits: { maxOldGenerationSizeMb: options.memoryMb } })
    const slot: Slot = { worker, task: null, timer: null }
    worker.on('message', (reply: WorkerReply) => {
      const task = slot.task
      if (!task) return
      finish(slot)
      if ('crashed' in reply) task.reject(new ReadRefused('crashed'))
      else task.resolve(reply.result)
      next(slot)
    })
    worker.on('error', (error: Error & { code?: string }) => {
      end(slot, new ReadRefused(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crashed'))
    })
    worker.on('exit', () => end(slot, new ReadRefused('crashed')))
    worker.unref()
    slots.add(slot)
    return slot
  }

  function finish(slot: Slot) {
    if (slot.timer) clearTimeout(slot.timer)
    slot.timer = null
    slot.task = null
    slot.worker.unref()
  }

  /** A worker gone (ended for its task, or died): its task refused, and a waiting file given a new worker. */
  function end(slot: Slot, error: Error) {
    if (!slots.delete(slot)) return
    const task = slot.task
    finish(slot)
    void slot.worker.terminate()
    task?.reject(error)
    if (!closed && waiting.length > 0) start(spawn(), waiting.shift()!)
  }

  function start(slot: Slot, task: Task) {
    slot.task = task
    slot.worker.ref()
    slot.timer = setTimeout(() => end(slot, new ReadRefused('timeout')), options.timeoutMs)
    slot.worker.postMessage({ id: 0, job: task.job })
  }

  function next(slot: Slot) {
    const task = waiting.shift()
    if (task) start(slot, task)
  }

  function run(job: WorkerJob): Promise<ReadResult | SettleResult> {
    if (closed) return Promise.reject(new PoolBusy('The server is shutting down.'))
    return new Promise((resolve, reject) => {
      const task = { job, resolve, reject }
      const free = [...slots].find((slot) => !slot.task)
      if (free) start(free, task)
      else if (slots.size < options.workers) start(spawn(), task)
      // Settling rows finishes a file already read: it goes first and is never refused for the queue.
      else if (job.kind === 'settle') waiting.unshift(task)
      else if (waiting.length < options.queue) waiting.push(task)
      else reject(new PoolBusy('Every import worker is busy.'))
    })
  }

  return {
    /** The file read into rows in a worker; PoolBusy or ReadRefused when it cannot be. */
    read: (job: ReadJob) => run({ kind: 'read', job }) as Promise<ReadResult>,
    /** The rows read, with the bank's duplicates marked, as the dry run stores and answers them. */
    settle: (job: SettleJob) => run({ kind: 'settle', job }) as Promise<SettleResult>,
    /** The files reading or waiting now (for tests and metrics). */
    load: () => ({ reading: [...slots].filter((slot) => slot.task).length, waiting: waiting.length }),
    async close() {
      closed = true
      for (const task of waiting.splice(0)) task.reject(new PoolBusy('The server is shutting down.'))
      const ending = [...slots].map((slot) => slot.worker.terminate())
      for (const slot of [...slots]) end(slot, new PoolBusy('The server is shutting down.'))
      await Promise.all(ending)
    },
  }
}

export type ReadPool = ReturnType<typeof createReadPool>

const shared = new Map<string, ReadPool>()

/**
 * The process's pool for these options, made on first use and kept for the life of the process: its idle workers
 * hold the process open for nothing (they are unref'd), and each app built in one process (tests build many) reuses
 * workers that have already loaded the readers instead of starting its own.
 */
export function sharedReadPool(options: ReadPoolOptions): ReadPool {
  const key = JSON.stringify(options)
  let pool = shared.get(key)
  if (!pool) shared.set(key, (pool = createReadPool(options)))
  return pool
}
