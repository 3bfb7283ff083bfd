import { Gauge, type Registry } from '@trove/service-kit';
import type { WorkerPool } from './worker-pool.ts';

/** Pool state on Prometheus /metrics, read when scraped: saturation shows before 503s do. */
export function registerPoolMetrics(registry: Registry, pool: WorkerPool): void {
  const read = (name: string, help: string, value: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(value());
      },
    });
  read('vectorize_pool_workers', 'Tracing worker threads', () => pool.size);
  read('vectorize_pool_busy_workers', 'Tracing workers running a job', () => pool.busy);
  read('vectorize_pool_queued_jobs', 'Jobs waiting for a free worker', () => pool.queued);
  read(
    'vectorize_pool_cancelled_jobs',
    'Jobs dropped or stopped since start because their client went away',
    () => pool.cancelled,
  );
  read('vectorize_pool_refused_jobs', 'Jobs refused since start because the queue was full (503)', () => pool.refused);
}
