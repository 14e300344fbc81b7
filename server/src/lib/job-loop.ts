export interface JobLoop {
  // No-op when the interval is 0, or already started.
  start(): void
  stop(): Promise<void>
}

// A pass at start settles what fell due while no process ran; passes never overlap. The timer never keeps a process
// alive on its own. `pass` must not throw: a job logs its own failures and tries again next time.
export function createJobLoop<T>(
  intervalMs: number,
  pass: () => Promise<T>,
  nextDelay: (result: T) => number = () => intervalMs,
): JobLoop {
  let timer: NodeJS.Timeout | undefined
  let stopped = true
  let running: Promise<T> | undefined

  function schedule(delay: number) {
    if (stopped) return
    timer = setTimeout(async () => {
      running = pass()
      const result = await running
      running = undefined
      schedule(nextDelay(result))
    }, delay)
    timer.unref()
  }

  return {
    start() {
      if (!stopped || intervalMs === 0) return
      stopped = false
      schedule(0)
    },
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}

export interface BatchJob extends JobLoop {
  /** One pass now, after the one running (if any): how many items it settled. */
  runNow(): Promise<number>
}

/**
 * A loop of passes that settle up to `batch` items each and one at a time per process (a call while one runs waits
 * for it, then runs its own); a full batch says more may be due, so the next pass follows at once.
 */
export function createBatchJob(intervalMs: number, batch: number, pass: () => Promise<number>): BatchJob {
  let running: Promise<number> | undefined

  async function runNow(): Promise<number> {
    while (running) await running
    running = pass()
    try {
      return await running
    } finally {
      running = undefined
    }
  }

  const loop = createJobLoop(intervalMs, runNow, (settled) => (settled === batch ? 0 : intervalMs))
  return {
    start: loop.start,
    async stop() {
      await loop.stop()
      await running
    },
    runNow,
  }
}
