import type { Registry } from '@trove/service-kit';
import { Counter, Gauge } from '@trove/service-kit';
import { createPoolMetrics, type RemoteLogger, RemoteTracer, type Tracer, WorkerPool } from '@trove/tracer';
import { traceWorkerCount, type VectorizeConfig } from '../config.ts';

export type { Tracer } from '@trove/tracer';

/**
 * The tracer the config asks for: vectorizer-worker servers over gRPC when VECTORIZER_WORKER_URL
 * is set, else a worker_threads pool in this process. Either reports on `registry`.
 */
export async function createTracer(
  config: VectorizeConfig,
  registry: Registry,
  logger?: RemoteLogger,
): Promise<Tracer> {
  if (!config.VECTORIZER_WORKER_URL) {
    const metrics = createPoolMetrics(registry);
    const pool = new WorkerPool({
      size: traceWorkerCount(config),
      queueLength: config.TRACE_QUEUE_LENGTH,
      observer: metrics,
    });
    metrics.watch(pool);
    return pool;
  }
  const retries = new Counter({
    name: 'vectorize_worker_retries_total',
    help: 'Calls sent to a second vectorizer-worker: reason busy (the first was full) or lost (down, draining, or died mid-job)',
    labelNames: ['reason'],
    registers: [registry],
  });
  for (const reason of ['busy', 'lost']) retries.labels({ reason }).inc(0);
  const remote = new RemoteTracer({
    target: config.VECTORIZER_WORKER_URL,
    // The largest upload decodes to MAX_IMAGE_PIXELS × 4 bytes; an SVG to optimise is at most MAX_UPLOAD_BYTES.
    maxRequestBytes: Math.max(config.MAX_IMAGE_PIXELS * 4, config.MAX_UPLOAD_BYTES) + 64 * 1024,
    logger,
    observer: { retried: (reason) => retries.labels({ reason }).inc() },
  });
  registerRemoteGauges(registry, remote);
  // Health is right from the first request; workers that are not up yet are found by later polls.
  await remote.refresh();
  return remote;
}

function registerRemoteGauges(registry: Registry, remote: RemoteTracer): void {
  const gauge = (name: string, help: string, value: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(value());
      },
    });
  gauge(
    'vectorize_workers',
    'vectorizer-worker servers the target resolves to',
    () => remote.status().servers?.total ?? 0,
  );
  gauge(
    'vectorize_workers_reachable',
    'vectorizer-worker servers that answered the last capacity poll',
    () => remote.status().servers?.reachable ?? 0,
  );
  gauge(
    'vectorize_workers_spare_capacity',
    'Jobs the reachable workers would accept now (free threads and queue places), as of the last poll',
    () => remote.status().spare,
  );
}
