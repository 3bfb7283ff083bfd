import { Counter, Gauge, Histogram, type Registry } from '@trove/service-kit';
import type { PoolObserver, WorkerPool } from './worker-pool.ts';

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export interface PoolMetrics extends PoolObserver {
  /** Reports the pool's state (threads, busy, queued) whenever /metrics is scraped. */
  watch(pool: WorkerPool): void;
}

/**
 * The pool on Prometheus /metrics, under the same names wherever the pool runs (inside
 * vectorize-api or in vectorizer-worker), so one dashboard reads both: saturation shows before
 * refusals do, and rate() of the counters gives jobs, cancellations and pixels per second.
 */
export function createPoolMetrics(registry: Registry): PoolMetrics {
  let pool: WorkerPool | undefined;
  const gauge = (name: string, help: string, value: (pool: WorkerPool) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        if (pool) this.set(value(pool));
      },
    });
  gauge('vectorize_pool_workers', 'Tracing worker threads', (p) => p.size);
  gauge('vectorize_pool_busy_workers', 'Tracing worker threads running a job', (p) => p.busy);
  gauge('vectorize_pool_queued_jobs', 'Jobs waiting for a free thread (queue depth)', (p) => p.queued);
  gauge('vectorize_pool_queue_length', 'Most jobs allowed to wait; beyond, jobs are refused', (p) => p.queueLength);

  const traceSeconds = new Histogram({
    name: 'vectorize_trace_seconds',
    help: 'Time a trace took on its thread (with the PDF, EPS or optimisation done in the same job), by engine used',
    labelNames: ['engine'],
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const optimizeSeconds = new Histogram({
    name: 'vectorize_optimize_seconds',
    help: 'Time an optimise-only job took on its thread',
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const pixels = new Counter({
    name: 'vectorize_traced_pixels_total',
    help: 'Pixels traced, by engine used; rate() of it is pixels per second',
    labelNames: ['engine'],
    registers: [registry],
  });
  const dropped = new Counter({
    name: 'vectorize_pool_cancelled_jobs_total',
    help: 'Jobs dropped from the queue or stopped on their thread: reason cancelled (the caller went away) or deadline; stage queued or running',
    labelNames: ['reason', 'stage'],
    registers: [registry],
  });
  const refused = new Counter({
    name: 'vectorize_pool_refused_jobs_total',
    help: 'Jobs refused at once because every thread was busy and the queue full',
    registers: [registry],
  });
  const crashed = new Counter({
    name: 'vectorize_pool_crashed_workers_total',
    help: 'Tracing threads that crashed or exited on their own and were replaced',
    registers: [registry],
  });
  // Present from the start, so a dashboard shows 0 rather than no data.
  for (const reason of ['cancelled', 'deadline']) {
    for (const stage of ['queued', 'running']) dropped.labels({ reason, stage }).inc(0);
  }

  return {
    watch: (watched) => {
      pool = watched;
    },
    finished: (kind, seconds, engine, pixelCount) => {
      if (kind === 'optimize' || !engine) {
        optimizeSeconds.observe(seconds);
        return;
      }
      traceSeconds.labels({ engine }).observe(seconds);
      pixels.labels({ engine }).inc(pixelCount ?? 0);
    },
    dropped: (reason, stage) => dropped.labels({ reason, stage }).inc(),
    refused: () => refused.inc(),
    crashed: () => crashed.inc(),
  };
}
