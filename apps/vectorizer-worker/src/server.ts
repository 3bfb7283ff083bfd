import { runGrpcService } from '@trove/grpc-kit';
import { PROTO_ROOT, TRACER_PROTO } from '@trove/proto/files';
import { TracerService } from '@trove/proto/vectorize/v1';
import { createPoolMetrics, WorkerPool, warmUp } from '@trove/tracer';
import { maxRequestBytes, readConfig, threadCount } from './config.ts';
import { SERVICE, VERSION } from './meta.ts';
import { tracerHandlers } from './tracer-service.ts';

await runGrpcService({
  service: SERVICE,
  version: VERSION,
  readConfig: () => readConfig(),
  maxRequestBytes,
  protoFiles: { root: PROTO_ROOT, files: [TRACER_PROTO] },
  build: async (config, logger, { grpc, readiness, http }) => {
    const metrics = createPoolMetrics(http.metricsRegistry);
    const pool = new WorkerPool({ size: threadCount(config), queueLength: config.QUEUE_LENGTH, observer: metrics });
    metrics.watch(pool);
    grpc.addService(TracerService, tracerHandlers(config, pool));
    // Ready once every thread has loaded the engine and traced once; calls that come earlier wait in the queue.
    let warm = false;
    readiness.add('threads', async () => {
      if (!warm) throw new Error('the tracing threads are still starting');
    });
    const started = performance.now();
    warmUp(pool, pool.size).then(
      () => {
        warm = true;
        logger.info({ threads: pool.size, seconds: (performance.now() - started) / 1000 }, 'tracing threads ready');
      },
      (err: Error) => logger.error({ err }, 'the tracing threads could not start'),
    );
    // Runs once in-flight calls have finished (runGrpcService drains gRPC first).
    return { close: () => pool.close() };
  },
});
