export interface JobLoop {
  start(): void
  stop(): Promise<void>
}

// A pass at start settles what fell due; passes never overlap; the timer keeps no process alive; `pass` never throws.
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
  runNow(): Promise<number>
}

/** Passes of up to `batch` items (per institute), one at a time per process; a full batch is followed at once by the next. */
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

  const loop = createJobLoop(intervalMs, runNow, (settled) => (settled >= batch ? 0 : intervalMs))
  return {
    start: loop.start,
    async stop() {
      await loop.stop()
      await running
    },
    runNow,
  }
}
