import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { parentPort, Worker, type WorkerOptions } from 'node:worker_threads'
// Workers decode pictures with sharp: on glibc the main thread must hold libvips loaded before any worker loads it
// (sharp issue 2263), or a worker's exit unloads it under the others.
import 'sharp'
import { decodeGateData, releaseDecodeSlotsOf } from './decode-gate'

// CPU work of seconds off the event loop: bounded worker threads, a queue, a timeout, a heap cap (docs/decisions/043).

export interface WorkerPoolOptions {
  workers: number
  timeoutMs: number
  queue: number
  memoryMb: number
}

export class PoolBusy extends Error {}
export class WorkerRefused extends Error {
  constructor(readonly reason: 'timeout' | 'memory' | 'crashed') {
    super(`The worker refused the job (${reason}).`)
  }
}

type WorkerReply<R> = { id: number; result: R } | { id: number; crashed: string }

/** `source` (a .ts path) when running from source (vitest, tsx), else `built` (beside dist/main.js). */
export function workerEntry(callerUrl: string, source: string, built: string): URL {
  return callerUrl.endsWith('.ts') ? new URL(source, callerUrl) : new URL(built, callerUrl)
}

// From source the worker starts through tsx's API: Node 20 workers ignore `--import tsx` (docs/decisions/043).
function newWorker(entry: URL, options: WorkerOptions): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options)
  const tsxDir = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'))
  const tsx = pathToFileURL(path.join(tsxDir, 'dist/esm/api/index.mjs')).href
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}) })`
  return new Worker(boot, { ...options, eval: true })
}

export function serveJobs<J, R>(run: (job: J) => Promise<R>) {
  parentPort!.on('message', (message: { id: number; job: J }) => {
    run(message.job).then(
      (result) => parentPort!.postMessage({ id: message.id, result } satisfies WorkerReply<R>),
      (error: unknown) =>
        parentPort!.postMessage({
          id: message.id,
          crashed: String((error as Error)?.stack ?? error),
        } satisfies WorkerReply<R>),
    )
  })
}

interface Task<J, R> {
  job: J
  resolve: (result: R) => void
  reject: (error: Error) => void
}

interface Slot<J, R> {
  worker: Worker
  task: Task<J, R> | null
  timer: NodeJS.Timeout | null
}

export function createWorkerPool<J, R>(entry: URL, options: WorkerPoolOptions) {
  const slots = new Set<Slot<J, R>>()
  const waiting: Task<J, R>[] = []
  let closed = false

  function spawn(): Slot<J, R> {
    const worker = newWorker(entry, {
      resourceLimits: { maxOldGenerationSizeMb: options.memoryMb },
      workerData: decodeGateData(),
    })
    const slot: Slot<J, R> = { worker, task: null, timer: null }
    worker.on('message', (reply: WorkerReply<R>) => {
      const task = slot.task
      if (!task) return
      finish(slot)
      if ('crashed' in reply) task.reject(new WorkerRefused('crashed'))
      else task.resolve(reply.result)
      next(slot)
    })
    worker.on('error', (error: Error & { code?: string }) => {
      end(slot, new WorkerRefused(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crashed'))
    })
    worker.on('exit', () => end(slot, new WorkerRefused('crashed')))
    worker.unref()
    slots.add(slot)
    return slot
  }

  function finish(slot: Slot<J, R>) {
    if (slot.timer) clearTimeout(slot.timer)
    slot.timer = null
    slot.task = null
    slot.worker.unref()
  }

  function end(slot: Slot<J, R>, error: Error) {
    if (!slots.delete(slot)) return
    const task = slot.task
    const thread = slot.worker.threadId
    finish(slot)
    void slot.worker.terminate().then(() => releaseDecodeSlotsOf(thread))
    task?.reject(error)
    if (!closed && waiting.length > 0) start(spawn(), waiting.shift()!)
  }

  function start(slot: Slot<J, R>, task: Task<J, R>) {
    slot.task = task
    slot.worker.ref()
    slot.timer = setTimeout(() => end(slot, new WorkerRefused('timeout')), options.timeoutMs)
    slot.worker.postMessage({ id: 0, job: task.job })
  }

  function next(slot: Slot<J, R>) {
    const task = waiting.shift()
    if (task) start(slot, task)
  }

  return {
    /** `first`: work that finishes a job already done (it goes first and is never refused for the queue). */
    run(job: J, { first = false } = {}): Promise<R> {
      if (closed) return Promise.reject(new PoolBusy('The server is shutting down.'))
      return new Promise((resolve, reject) => {
        const task = { job, resolve, reject }
        const free = [...slots].find((slot) => !slot.task)
        if (free) start(free, task)
        else if (slots.size < options.workers) start(spawn(), task)
        else if (first) waiting.unshift(task)
        else if (waiting.length < options.queue) waiting.push(task)
        else reject(new PoolBusy('Every worker is busy.'))
      })
    },
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

export type WorkerPool<J, R> = ReturnType<typeof createWorkerPool<J, R>>
