import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'

import type { Queryable } from './db/db.ts'
import { queueDepth } from './jobs/queue.ts'

/** Prometheus metrics of one process: one registry per app so tests never share counters. */
export function createMetrics(db: Queryable) {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  })
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['route', 'method'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  })
  const jobDuration = new Histogram({
    name: 'job_duration_seconds',
    help: 'Job run time by kind and outcome',
    labelNames: ['kind', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 1800],
    registers: [registry],
  })
  const promptVectors = new Counter({
    name: 'prompt_vectors_total',
    help: "Segment builds by whether the prompt's sentence vector was used, unavailable (the encoder failed) or off",
    labelNames: ['outcome'] as const,
    registers: [registry],
  })
  new Gauge({
    name: 'job_queue_depth',
    help: 'Jobs queued or running, by kind and status',
    labelNames: ['kind', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset()
      for (const r of await queueDepth(db).catch(() => [])) this.set({ kind: r.kind, status: r.status }, r.count)
    },
  })
  return {
    registry,
    observeRequest(route: string, method: string, status: number, seconds: number) {
      requests.inc({ route, method, status: String(status) })
      latency.observe({ route, method }, seconds)
    },
    observeJob(kind: string, outcome: string, seconds: number) {
      jobDuration.observe({ kind, outcome }, seconds)
    },
    observePromptVector(outcome: 'used' | 'unavailable' | 'off') {
      promptVectors.inc({ outcome })
    },
  }
}

export type Metrics = ReturnType<typeof createMetrics>
