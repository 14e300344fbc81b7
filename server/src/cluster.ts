import cluster, { type Worker } from 'node:cluster'
import type { Config } from './config'
import { createDatabase } from './db/database'
import { migrateForApp } from './db/app-role'
import { serveClusterMetrics } from './lib/metrics'

/** A worker that dies this soon after it started is failing to start, not crashing: stop instead of looping. */
const EARLY_EXIT_MS = 5_000

/** WORKERS > 1: all shared state is in the database (decision 005), so the workers need nothing from each other. */
export async function runPrimary(config: Config, log: (line: string) => void = console.log) {
  const database = createDatabase(config.database)
  const warnings = await migrateForApp(config.database, database)
  await database.destroy()
  for (const warning of warnings) log(`warning: ${warning}`)
  serveClusterMetrics()

  let stopping = false
  const startedAt = new Map<Worker, number>()
  // glibc's per-thread malloc arenas keep what libvips freed: two arenas, 60 to 90 MB lower (docs/operations.md "Memory").
  const workerEnv = { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' }
  const fork = () => startedAt.set(cluster.fork(workerEnv), Date.now())

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0)
    startedAt.delete(worker)
    if (stopping) {
      if (startedAt.size === 0) process.exit(0)
      return
    }
    log(`worker ${worker.process.pid} ended (${signal ?? `code ${code}`}) after ${Math.round(lived / 1000)} s`)
    if (lived < EARLY_EXIT_MS) {
      log('a worker failed at start; stopping (its error is above)')
      stop(1)
      return
    }
    fork()
  })

  function stop(exitCode = 0) {
    if (stopping) return
    stopping = true
    process.exitCode = exitCode
    if (startedAt.size === 0) process.exit(exitCode)
    for (const worker of startedAt.keys()) worker.process.kill('SIGTERM')
  }
  process.on('SIGTERM', () => stop())
  process.on('SIGINT', () => stop())

  for (let i = 0; i < config.workers; i++) fork()
  log(`primary ${process.pid}: ${config.workers} workers on port ${config.port}`)
}
