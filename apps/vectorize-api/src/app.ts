import multipart from '@fastify/multipart';
import { createServer, type Logger, serviceKit } from '@trove/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { traceWorkerCount, type VectorizeConfig } from './config.ts';
import { SERVICE } from './meta.ts';
import { registerOpenApi } from './openapi.ts';
import { RequestStats } from './request-stats.ts';
import { healthRoutes } from './routes/health/index.ts';
import { countWorkRequests, metricsRoutes } from './routes/metrics/index.ts';
import { optimizeRoutes } from './routes/optimize/index.ts';
import { vectorizeRoutes } from './routes/vectorize/index.ts';
import { registerPoolMetrics } from './tracing/pool-metrics.ts';
import type { Tracer } from './tracing/tracer.ts';
import { WorkerPool } from './tracing/worker-pool.ts';

export interface VectorizeAppOptions {
  config: VectorizeConfig;
  /** Where traces run; defaults to a worker pool sized from the config. Closed with the app. */
  tracer?: Tracer;
}

/** vectorize-api as a Fastify plugin. It keeps no data, so it has no dependencies to check. */
export const vectorizeApp = fp<VectorizeAppOptions>(
  async (app, { config, tracer: given }) => {
    const tracer = given ?? new WorkerPool({ size: traceWorkerCount(config), queueLength: config.TRACE_QUEUE_LENGTH });
    app.addHook('onClose', async () => tracer.close());
    const stats = new RequestStats();

    await app.register(serviceKit, { service: SERVICE });
    if (tracer instanceof WorkerPool) registerPoolMetrics(app.metricsRegistry, tracer);
    await registerOpenApi(app);
    // Files are read into memory only (never spooled to disk); the per-route limits are set where parts are read.
    await app.register(multipart, { limits: { fileSize: config.MAX_UPLOAD_BYTES, files: 1 } });
    countWorkRequests(app, stats);
    await app.register(healthRoutes);
    await app.register(metricsRoutes, { stats });
    await app.register(vectorizeRoutes, {
      tracer,
      maxUploadBytes: config.MAX_UPLOAD_BYTES,
      maxImagePixels: config.MAX_IMAGE_PIXELS,
    });
    await app.register(optimizeRoutes, { tracer, maxUploadBytes: config.MAX_UPLOAD_BYTES });
  },
  { name: SERVICE },
);

export async function buildVectorizeApp(config: VectorizeConfig, logger: Logger): Promise<FastifyInstance> {
  const server = createServer({ logger });
  await server.register(vectorizeApp, { config });
  return server;
}
