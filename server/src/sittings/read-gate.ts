/**
 * At most `limit` pieces of work at once in this process; the rest wait their turn in order. Reading a photo decodes
 * a 12 MP image (about 40 MB) and holds its grey copy: bounding the reads bounds the memory a burst of uploads takes.
 */
export function createGate(limit: number) {
  let running = 0
  const waiting: (() => void)[] = []
  return async function run<T>(work: () => Promise<T>): Promise<T> {
    if (running < limit) running++
    // A finishing piece hands its place straight to the next in line, so `running` never drops and climbs again.
    else await new Promise<void>((resolve) => waiting.push(resolve))
    try {
      return await work()
    } finally {
      const next = waiting.shift()
      if (next) next()
      else running--
    }
  }
}
