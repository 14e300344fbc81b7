import { parentPort } from 'node:worker_threads'
import { runJob, type ReadResult, type SettleResult, type WorkerJob } from './read-job'

// A crash (a bug a crafted file found) comes back as `crashed`, and the pool refuses the file.

export type WorkerReply = { id: number; result: ReadResult | SettleResult } | { id: number; crashed: string }

parentPort!.on('message', (message: { id: number; job: WorkerJob }) => {
  runJob(message.job).then(
    (result) => parentPort!.postMessage({ id: message.id, result } satisfies WorkerReply),
    (error: unknown) =>
      parentPort!.postMessage({
        id: message.id,
        crashed: String((error as Error)?.stack ?? error),
      } satisfies WorkerReply),
  )
})
