import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import path from 'node:path'
import { Worker, type WorkerOptions } from 'node:worker_threads'
// Workers re-encode pictures with sharp: on glibc the main thread must hold libvips loaded before any worker loads it
// (sharp issue 2263), or a worker's exit unloads it under the others.
import 'sharp'
import type { ReadJob, ReadResult, SettleJob, SettleResult, WorkerJob } from './read-job'
import type { WorkerReply } from './import-worker'

// Reading a file is CPU work of seconds: bounded worker threads, a queue, a timeout, a heap cap (docs/decisions/043).

export interface ReadPoolOptions {
  workers: number
  timeoutMs: number
  queue: number
  memoryMb: number
}

export class PoolBusy extends Error {}
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

// From source the worker starts through tsx's API: Node 20 workers ignore `--import tsx` (docs/decisions/043).
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
    read: (job: ReadJob) => run({ kind: 'read', job }) as Promise<ReadResult>,
    settle: (job: SettleJob) => run({ kind: 'settle', job }) as Promise<SettleResult>,
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

// One per process: the apps built in one process (tests build many) reuse workers that have loaded the readers.
export function sharedReadPool(options: ReadPoolOptions): ReadPool {
  const key = JSON.stringify(options)
  let pool = shared.get(key)
  if (!pool) shared.set(key, (pool = createReadPool(options)))
  return pool
}
