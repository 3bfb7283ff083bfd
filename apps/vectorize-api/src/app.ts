import multipart from '@fastify/multipart';
import { createServer, type Logger, serviceKit } from '@trove/service-kit';
import { WorkerPool, warmUp } from '@trove/tracer';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import sharp from 'sharp';
import type { VectorizeConfig } from './config.ts';
import { SERVICE } from './meta.ts';
import { registerOpenApi } from './openapi.ts';
import { RequestStats } from './request-stats.ts';
import { healthRoutes, tracingReport } from './routes/health/index.ts';
import { countWorkRequests, metricsRoutes, WARM_UP_HEADER, WARM_UP_TOKEN } from './routes/metrics/index.ts';
import { optimizeRoutes } from './routes/optimize/index.ts';
import { vectorizeRoutes } from './routes/vectorize/index.ts';
import { createTracer, type Tracer } from './tracing/tracer.ts';

export interface VectorizeAppOptions {
  config: VectorizeConfig;
  /**
   * Where traces run; by default what the config asks for (vectorizer-worker servers with
   * VECTORIZER_WORKER_URL, else a worker pool in this process). Closed with the app.
   */
  tracer?: Tracer;
}

/**
 * vectorize-api as a Fastify plugin. It keeps no data; its one dependency is where tracing runs,
 * reported by /readyz (degraded, never unready: without workers it still answers health checks
 * and refuses bad input, and traces get a 503 with Retry-After) and by /v1/health.
 */
export const vectorizeApp = fp<VectorizeAppOptions>(
  async (app, { config, tracer: given }) => {
    await app.register(serviceKit, { service: SERVICE });
    const tracer = given ?? (await createTracer(config, app.metricsRegistry, app.log));
    app.addHook('onClose', async () => tracer.close());
    app.readiness.add('tracer', async () => tracingReady(tracer), {
      required: false,
      details: () => tracingReport(tracer.status()),
    });
    if (!given && tracer instanceof WorkerPool) warmInBackground(app, tracer);
    const stats = new RequestStats();

    await registerOpenApi(app);
    // Files are read into memory only (never spooled to disk); the per-route limits are set where parts are read.
    await app.register(multipart, { limits: { fileSize: config.MAX_UPLOAD_BYTES, files: 1 } });
    countWorkRequests(app, stats);
    await app.register(healthRoutes, { tracer });
    await app.register(metricsRoutes, { stats });
    await app.register(vectorizeRoutes, {
      tracer,
      maxUploadBytes: config.MAX_UPLOAD_BYTES,
      maxImagePixels: config.MAX_IMAGE_PIXELS,
      timeoutMs: config.TRACE_TIMEOUT_MS,
    });
    await app.register(optimizeRoutes, {
      tracer,
      maxUploadBytes: config.MAX_UPLOAD_BYTES,
      timeoutMs: config.TRACE_TIMEOUT_MS,
    });
  },
  { name: SERVICE },
);

/**
 * Not ready until every tracing thread has run each engine path and writer a few times: the first
 * request after start would otherwise pay for loading the engine and compiling its code (several
 * times a warm request). Requests that come earlier are served, just slower.
 */
function warmInBackground(app: FastifyInstance, pool: WorkerPool): void {
  let warm = false;
  app.readiness.add('warm-up', async () => {
    if (!warm) throw new Error('the tracing threads are still warming up');
  });
  const started = performance.now();
  // Then a few real requests through the app itself (multipart, sharp's decoder, the route and its
  // serialiser warm up too), once it is ready to take them; they are not counted in /v1/metrics.
  const warmRequests = new Promise<void>((resolve) => app.addHook('onReady', async () => resolve())).then(() =>
    warmUpRequests(app),
  );
  Promise.all([warmUp(pool, pool.size), warmRequests]).then(
    () => {
      warm = true;
      app.log.info({ threads: pool.size, seconds: (performance.now() - started) / 1000 }, 'tracing threads warm');
    },
    (err: Error) => app.log.error({ err }, 'warming the tracing threads failed'),
  );
}

async function warmUpRequests(app: FastifyInstance): Promise<void> {
  const width = 40;
  const pixels = Buffer.alloc(width * width * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7) % 256;
  const png = await sharp(pixels, { raw: { width, height: width, channels: 3 } })
    .png()
    .toBuffer();
  for (let round = 0; round < 3; round++) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)]), 'warm-up.png');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    await app.inject({
      method: 'POST',
      url: '/v1/vectorize',
      payload: Buffer.from(await request.arrayBuffer()),
      headers: { 'content-type': request.headers.get('content-type') as string, [WARM_UP_HEADER]: WARM_UP_TOKEN },
    });
  }
}

/** For /readyz: some worker answered its last capacity poll (always true in process). */
function tracingReady(tracer: Tracer): void {
  const { servers } = tracer.status();
  if (servers && servers.reachable === 0) {
    throw new Error(`none of the ${servers.total} vectorizer-worker servers answered the last capacity poll`);
  }
}

export async function buildVectorizeApp(config: VectorizeConfig, logger: Logger): Promise<FastifyInstance> {
  const server = createServer({ logger, connections: config });
  await server.register(vectorizeApp, { config });
  return server;
}
