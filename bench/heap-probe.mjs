// Preloaded into the server by bench/maths-memory.mjs (with --expose-gc): on SIGWINCH (ignored by default, and not
// one of the signals close-with-grace shuts the server down on, as it does on SIGUSR2), a full garbage collection,
// then one line `HEAP {rss, heapUsed, heapTotal, external}` (bytes) on standard error, for the bench to read.
process.on('SIGWINCH', () => {
  globalThis.gc?.()
  const { rss, heapUsed, heapTotal, external } = process.memoryUsage()
  process.stderr.write(`HEAP ${JSON.stringify({ rss, heapUsed, heapTotal, external })}\n`)
})
