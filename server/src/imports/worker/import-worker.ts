import { parentPort } from 'node:worker_threads'
import { readJob, type ReadJob, type ReadResult } from './read-job'

// An import worker (pool.ts): reads one file at a time, as the pool sends them. A reader's own failure comes back
// as data; anything else thrown (a bug a crafted file found) comes back as `crashed`, and the pool refuses the file.

export type WorkerReply = { id: number; result: ReadResult } | { id: number; crashed: string }

parentPort!.on('message', (message: { id: number; job: ReadJob }) => {
  readJob(message.job).then(
    (result) => parentPort!.postMessage({ id: message.id, result } satisfies WorkerReply),
    (error: unknown) =>
      parentPort!.postMessage({
        id: message.id,
        crashed: String((error as Error)?.stack ?? error),
      } satisfies WorkerReply),
  )
})
