import cluster from 'node:cluster'
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

export interface PoolStats {
  size: number
  busy: number
  waiting: number
  asked: number
}

export interface Metrics {
  registry: Registry
  observeRequest(method: string, route: string, status: number, seconds: number): void
  attemptStarted(): void
  attemptSubmitted(): void
}

export function createMetrics(poolStats: () => PoolStats, { served }: { served: boolean }): Metrics {
  const registry = new Registry()
  if (served) collectDefaultMetrics({ register: registry })
  if (cluster.isWorker) {
    // A worker answers the primary only once an AggregatorRegistry exists in it: constructing one adds the listener.
    new AggregatorRegistry()
    AggregatorRegistry.setRegistries(registry)
  }
  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code, with their duration.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  const started = new Counter({
    name: 'quiz_attempts_started_total',
    help: 'Attempts started (a resumed attempt is not counted again).',
    registers: [registry],
  })
  const submitted = new Counter({
    name: 'quiz_attempts_submitted_total',
    help: 'Attempts finished by a submission the server accepted.',
    registers: [registry],
  })
  new Gauge({
    name: 'quiz_db_pool_connections',
    help: 'Database connections of this process: size, busy, and requests waiting for one.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = poolStats()
      this.set({ state: 'size' }, stats.size)
      this.set({ state: 'busy' }, stats.busy)
      this.set({ state: 'waiting' }, stats.waiting)
    },
  })
  return {
    registry,
    observeRequest: (method, route, status, seconds) => requests.observe({ method, route, status }, seconds),
    attemptStarted: () => started.inc(),
    attemptSubmitted: () => submitted.inc(),
  }
}

const CLUSTER_METRICS_REQUEST = 'quiz:cluster-metrics-request'
const CLUSTER_METRICS_RESPONSE = 'quiz:cluster-metrics-response'
let clusterRequests = 0

// With WORKERS > 1 a scrape reaches one worker at random: the worker asks the primary, which gathers every worker's.
export async function metricsText(metrics: Metrics): Promise<string> {
  if (!cluster.isWorker || !process.send) return metrics.registry.metrics()
  const id = `${process.pid}:${clusterRequests++}`
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off('message', onMessage)
      reject(new Error('the primary did not answer a metrics request'))
    }, 5000)
    function onMessage(message: { type?: string; id?: string; text?: string; error?: string }) {
      if (message?.type !== CLUSTER_METRICS_RESPONSE || message.id !== id) return
      clearTimeout(timer)
      process.off('message', onMessage)
      if (message.error !== undefined) reject(new Error(message.error))
      else resolve(message.text ?? '')
    }
    process.on('message', onMessage)
    process.send!({ type: CLUSTER_METRICS_REQUEST, id })
  })
}

export function serveClusterMetrics() {
  const aggregator = new AggregatorRegistry()
  cluster.on('message', (worker, message: { type?: string; id?: string }) => {
    if (message?.type !== CLUSTER_METRICS_REQUEST) return
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: CLUSTER_METRICS_RESPONSE, id: message.id, text }),
      (error: Error) => worker.send({ type: CLUSTER_METRICS_RESPONSE, id: message.id, error: error.message }),
    )
  })
}
