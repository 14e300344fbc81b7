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
