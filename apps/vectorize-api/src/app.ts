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
/** Uploads of the screenshot sample before ready: the exact-runs code keeps getting faster for the first several. */
const SCREENSHOT_ROUNDS = 8;

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

/**
 * A screenshot-like picture drawn from shapes alone (no fonts needed): 1-px borders and rules, and
 * rows of anti-aliased glyph-like marks 9-11 px high in four ink colours on a light page. `auto`
 * sends it through the fine-detail check, the ink palette and the exact stacked runs, the path
 * diagrams and screenshots take, at a realistic size (a 96 x 64 sample leaves that code cold: a
 * diagram's first upload took 2-10x a warm one).
 */
export async function screenshotSample(): Promise<Buffer> {
  const inks = ['#202124', '#5f6368', '#1a73e8', '#c5221f'];
  const marks: string[] = [];
  for (let row = 0; row < 14; row++) {
    const y = 40 + row * 17;
    let x = 20 + (row % 3) * 7;
    for (let k = 0; x < 560; k++) {
      const ink = inks[(row + (k >> 3)) % inks.length];
      const h = 9 + (k % 3);
      const shape = (row * 7 + k * 3) % 5;
      if (shape === 0)
        marks.push(
          `<ellipse cx="${x + 2.6}" cy="${y - 3.2}" rx="2.4" ry="3.1" fill="none" stroke="${ink}" stroke-width="1.1"/>`,
        );
      else if (shape === 1)
        marks.push(
          `<line x1="${x + 0.4}" y1="${y - h}" x2="${x + 0.4}" y2="${y}" stroke="${ink}" stroke-width="1.2"/>`,
        );
      else if (shape === 2)
        marks.push(`<path d="M${x} ${y}l2.7 -${h - 2}l2.7 ${h - 2}" fill="none" stroke="${ink}" stroke-width="1.1"/>`);
      else if (shape === 3)
        marks.push(
          `<path d="M${x + 0.3} ${y}v-6.3a2.6 2.6 0 0 1 5 0v6.3" fill="none" stroke="${ink}" stroke-width="1.15"/>`,
        );
      x += k % 6 === 5 ? 9 : 6.6;
    }
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300">
<rect width="600" height="300" fill="#f6f8fa"/><rect x="8.5" y="8.5" width="583" height="283" fill="#fff" stroke="#d0d7de"/>
<line x1="9" y1="24.5" x2="591" y2="24.5" stroke="#d0d7de"/><rect x="470.5" y="180.5" width="110" height="90" fill="#e8f0fe" stroke="#1a73e8"/>
${marks.join('')}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function warmUpRequests(app: FastifyInstance): Promise<void> {
  const width = 40;
  const pixels = Buffer.alloc(width * width * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7) % 256;
  const noise = await sharp(pixels, { raw: { width, height: width, channels: 3 } })
    .png()
    .toBuffer();
  const screenshot = await screenshotSample();
  for (const [png, rounds] of [
    [noise, 3],
    [screenshot, SCREENSHOT_ROUNDS],
  ] as const) {
    for (let round = 0; round < rounds; round++) {
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
