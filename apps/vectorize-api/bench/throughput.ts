/**
 * vectorize-api benchmark, loopback only, bounded in requests and time.
 *
 * Prints, in one run:
 * - images/s for a mid-size logo and a photo-like image through POST /v1/vectorize at client
 *   concurrency 1, 2 and 4, beside the same tracing done directly in one thread;
 * - the server's event-loop delay while it traces, and GET /v1/health latency under that load;
 * - svgo time per MB, directly and through POST /v1/optimize.
 *
 * Each level runs for BENCH_SECONDS (default 6) or BENCH_REQUESTS requests (default 200),
 * whichever comes first. TRACE_WORKERS / TRACE_QUEUE_LENGTH as for the server.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createLogger } from '@trove/service-kit';
import { percentile } from '@trove/stats';
import { optimizeSvg } from '@trove/tracer';
import { type RgbaImage, vectorize } from '@trove/vectorize';
import sharp from 'sharp';
import { buildVectorizeApp } from '../src/app.ts';
import { readConfig, traceWorkerCount } from '../src/config.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const FIXTURES = new URL('../../../packages/vectorize/fixtures/', import.meta.url);
const IMAGES = [
  { label: 'logo 512×512', file: 'logo-aa-transparent-512.png' },
  { label: 'photo 800×600', file: 'photo-like-800x600.png' },
];

const config = readConfig({ ...process.env, LOG_LEVEL: 'silent' });
const app = await buildVectorizeApp(config, createLogger({ service: 'bench', level: 'silent', format: 'json' }));
await app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

async function decode(bytes: Buffer): Promise<RgbaImage> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
}

function form(bytes: Buffer, fields: Record<string, string>): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append('file', new Blob([new Uint8Array(bytes)]), 'image.png');
  return body;
}

/** Same tracing in this thread: decode once, trace until REQUESTS traces or SECONDS have passed. */
function directRate(image: RgbaImage): number {
  // Warm-up until the engine is compiled: the first traces of an image run several times slower.
  const warmUntil = performance.now() + 3000;
  for (let i = 0; i < 10 && performance.now() < warmUntil; i++) vectorize(image, {});
  const started = performance.now();
  let done = 0;
  while (done < REQUESTS && performance.now() - started < SECONDS * 1000) {
    vectorize(image, {});
    done++;
  }
  return done / ((performance.now() - started) / 1000);
}

/** REQUESTS requests (or SECONDS) at `concurrency`, with health probes and loop-delay sampling alongside. */
async function httpRate(bytes: Buffer, concurrency: number, fields: Record<string, string>) {
  let issued = 0;
  let ok = 0;
  let busy = 0;
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const healthMs: number[] = [];
  let loading = true;
  const probe = (async () => {
    while (loading) {
      const t = performance.now();
      await (await fetch(`${base}/v1/health`)).arrayBuffer();
      healthMs.push(performance.now() - t);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  loop.enable();
  const client = async () => {
    while (issued < REQUESTS && performance.now() < deadline) {
      issued++;
      const response = await fetch(`${base}/v1/vectorize`, { method: 'POST', body: form(bytes, fields) });
      await response.arrayBuffer();
      if (response.status === 200) ok++;
      else if (response.status === 503) busy++;
      else throw new Error(`unexpected status ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  const seconds = (performance.now() - started) / 1000;
  loop.disable();
  loading = false;
  await probe;
  return {
    rate: ok / seconds,
    busy,
    loopP99: loop.percentile(99) / 1e6,
    loopMax: loop.max / 1e6,
    healthP50: percentile(healthMs, 50),
    healthMax: Math.max(...healthMs),
  };
}

const f = (value: number, digits = 1) => value.toFixed(digits);
console.log(
  `vectorize-api benchmark: ${availableParallelism()} cores, ${traceWorkerCount(config)} tracing workers, queue ${config.TRACE_QUEUE_LENGTH}, ${SECONDS} s or ${REQUESTS} requests per level`,
);
console.log(
  '\n| image | mode | concurrency | images/s | 503s | loop delay p99 ms | loop delay max ms | health p50 ms | health max ms |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
let tracedPhotoSvg = '';
for (const { label, file } of IMAGES) {
  const bytes = readFileSync(new URL(file, FIXTURES));
  const image = await decode(bytes);
  console.log(`| ${label} | direct, one thread | 1 | ${f(directRate(image), 2)} | – | – | – | – | – |`);
  // Warm-up for the workers likewise (a few requests, not a timed level).
  for (let i = 0; i < 3; i++) {
    for (const fields of [{ optimize: 'false' }, {}] as Record<string, string>[]) {
      await (await fetch(`${base}/v1/vectorize`, { method: 'POST', body: form(bytes, fields) })).arrayBuffer();
    }
  }
  for (const concurrency of [1, 2, 4]) {
    // optimize=false: the same work as the direct row (decode + trace), plus HTTP and the pool.
    const r = await httpRate(bytes, concurrency, { optimize: 'false' });
    console.log(
      `| ${label} | HTTP, optimize=false | ${concurrency} | ${f(r.rate, 2)} | ${r.busy} | ${f(r.loopP99)} | ${f(r.loopMax)} | ${f(r.healthP50)} | ${f(r.healthMax)} |`,
    );
  }
  const withSvgo = await httpRate(bytes, 2, {});
  console.log(
    `| ${label} | HTTP, default (svgo on) | 2 | ${f(withSvgo.rate, 2)} | ${withSvgo.busy} | ${f(withSvgo.loopP99)} | ${f(withSvgo.loopMax)} | ${f(withSvgo.healthP50)} | ${f(withSvgo.healthMax)} |`,
  );
  if (file.startsWith('photo')) tracedPhotoSvg = vectorize(image, {}).svg;
}

// Optimisation cost: the traced photo's SVG (tracer output, unoptimised), repeated to about 1 MB.
const svg = tracedPhotoSvg;
const megabytes = Buffer.byteLength(svg) / 2 ** 20;
const rounds = 3;
let started = performance.now();
for (let i = 0; i < rounds; i++) optimizeSvg(svg, { preset: 'default', multipass: false, iterations: 10 });
const directMsPerMb = (performance.now() - started) / rounds / megabytes;
started = performance.now();
for (let i = 0; i < rounds; i++) {
  const body = new FormData();
  body.append('file', new Blob([svg]), 'a.svg');
  const response = await fetch(`${base}/v1/optimize`, { method: 'POST', body });
  if (response.status !== 200) throw new Error(`optimize answered ${response.status}`);
  await response.arrayBuffer();
}
const httpMsPerMb = (performance.now() - started) / rounds / megabytes;
console.log(`\noptimize (svgo preset default) on a ${f(megabytes * 1024, 0)} KB traced SVG:`);
console.log(`  direct: ${f(directMsPerMb, 0)} ms per MB; POST /v1/optimize: ${f(httpMsPerMb, 0)} ms per MB`);
await app.close();
