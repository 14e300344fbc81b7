// Preloaded into the server to see what its resident memory is made of at its peak:
//   BENCH_ONLY=exam BENCH_NODE_ARGS="--import ./bench/memory-peak.mjs" npm run bench
// Samples process.memoryUsage() and V8's heap spaces every 50 ms and prints, on exit, the sample with the highest RSS
// (RSS, the V8 heap reserved and in use, memory outside it).
import v8 from 'node:v8'

const MB = 1024 * 1024
let peak
const timer = setInterval(() => {
  const memory = process.memoryUsage()
  if (peak && memory.rss <= peak.memory.rss) return
  const spaces = v8.getHeapSpaceStatistics().map((space) => ({
    space: space.space_name,
    reservedMB: Math.round(space.space_size / MB),
    usedMB: Math.round(space.space_used_size / MB),
  }))
  peak = { memory, spaces }
}, 50)
timer.unref()

process.on('exit', () => {
  if (!peak) return
  const { rss, heapTotal, heapUsed, external, arrayBuffers } = peak.memory
  const mb = (bytes) => Math.round(bytes / MB)
  console.error(
    `memory at peak RSS: rss ${mb(rss)} MB, V8 heap ${mb(heapTotal)} MB (${mb(heapUsed)} MB in use), ` +
      `outside the heap ${mb(rss - heapTotal)} MB (external ${mb(external)} MB, array buffers ${mb(arrayBuffers)} MB)`,
  )
  console.error(`V8 heap spaces at that moment: ${JSON.stringify(peak.spaces.filter((space) => space.reservedMB > 0))}`)
})
