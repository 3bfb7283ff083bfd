/**
 * One contract for wherever tracing runs: the same requests and the same assertions against
 * vectorize-api with its in-process pool and with a real vectorizer-worker process over gRPC.
 */
import { readFileSync } from 'node:fs';
import { optimizeSvg, writeEps, writePdf } from '@trove/tracer';
import { vectorize } from '@trove/vectorize';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  inProcessSetup,
  type ListeningApp,
  remoteSetup,
  sendVectorize,
  slowPng,
  type TracingSetup,
} from './tracing-helpers.ts';

const logoPng = readFileSync(new URL('../../../packages/vectorize/fixtures/logo-aa-256.png', import.meta.url));

async function post(url: string, path: string, fields: Record<string, string>, file: Buffer) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(file)]), 'upload');
  return fetch(`${url}${path}`, { method: 'POST', body: form });
}

interface SvgAnswer {
  svg: string;
  metadata: { path_count: number };
  unsafe_removed?: number;
  error?: string;
}
const json = async (response: Response) => (await response.json()) as SvgAnswer;

describe.each([
  ['the in-process pool', inProcessSetup],
  ['a vectorizer-worker process over gRPC', remoteSetup],
])('tracing on %s', (_, makeSetup) => {
  const setup: TracingSetup = makeSetup();
  let api: ListeningApp;
  let slow: Buffer;

  beforeAll(async () => {
    api = await setup.start();
    slow = await slowPng();
  });
  afterAll(() => setup.close());

  describe('meets the contract', () => {
    it('answers exactly what the engine and the writers give for the same pixels', async () => {
      // Decoded as vectorize-api decodes uploads.
      const { data, info } = await sharp(logoPng).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const image = { width: info.width, height: info.height, data: new Uint8Array(data) };
      const png = logoPng;
      const fields = { engine: 'spline', path_precision: '3' };
      const traced = vectorize(image, { engine: 'spline', path_precision: 3 });

      const raw = await json(await post(api.url, '/v1/vectorize', { ...fields, optimize: 'false' }, png));
      expect(raw.svg).toBe(traced.svg);
      expect(raw.metadata.path_count).toBe(traced.paths.length);
      const optimised = await json(await post(api.url, '/v1/vectorize', fields, png));
      expect(optimised.svg).toBe(optimizeSvg(traced.svg, { preset: 'default', multipass: false, iterations: 10 }).svg);

      const pdf = Buffer.from(
        await (await post(api.url, '/v1/vectorize', { ...fields, format: 'pdf' }, png)).arrayBuffer(),
      );
      expect(pdf.equals(await writePdf(traced.width, traced.height, traced.paths))).toBe(true);
      const eps = Buffer.from(
        await (await post(api.url, '/v1/vectorize', { ...fields, format: 'eps' }, png)).arrayBuffer(),
      );
      expect(eps.equals(writeEps(traced.width, traced.height, traced.paths))).toBe(true);

      const svgFile = Buffer.from(traced.svg);
      const alone = await json(await post(api.url, '/v1/optimize', { preset: 'safe' }, svgFile));
      expect(alone.svg).toBe(optimizeSvg(traced.svg, { preset: 'safe', multipass: false, iterations: 10 }).svg);
      expect(alone.unsafe_removed).toBe(0);
    });

    it('words what the engine or the optimiser refuses as a 400, and stays healthy', async () => {
      const broken = await post(
        api.url,
        '/v1/optimize',
        {},
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><g></svg>'),
      );
      expect(broken.status).toBe(400);
      expect((await json(broken)).error).toMatch(/^the SVG could not be parsed: /);
      expect((await fetch(`${api.url}/v1/health`)).status).toBe(200);
    });

    it('answers 503 with Retry-After when the pool is full, while health stays answered', async () => {
      const running = await sendVectorize(api.port, { engine: 'spline' }, slow);
      await vi.waitFor(async () => expect((await setup.load()).busy).toBe(1), { timeout: 30_000 });
      const waiting = await sendVectorize(api.port, { engine: 'spline' }, slow);
      await vi.waitFor(async () => expect((await setup.load()).queued).toBe(1), { timeout: 30_000 });
      try {
        const refused = await post(api.url, '/v1/vectorize', {}, logoPng);
        expect(refused.status).toBe(503);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect((await json(refused)).error).toMatch(/busy/);
        const health = await fetch(`${api.url}/v1/health`);
        expect(health.status).toBe(200);
        // A remote pool is seen through its last capacity poll, at most a couple of seconds old.
        await vi.waitFor(
          async () =>
            expect(((await (await fetch(`${api.url}/v1/health`)).json()) as { tracing: object }).tracing).toMatchObject(
              {
                busy: 1,
                queued: 1,
                spare_capacity: 0,
              },
            ),
          { timeout: 10_000 },
        );
        expect(await setup.poolMetric('vectorize_pool_refused_jobs_total')).toBeGreaterThanOrEqual(1);
      } finally {
        running.hangUp();
        waiting.hangUp();
        await vi.waitFor(async () => expect(await setup.load()).toEqual({ busy: 0, queued: 0 }), { timeout: 30_000 });
      }
    });

    it('drops the queued job and stops the running one when their clients hang up', async () => {
      const count = (stage: string) =>
        setup.poolMetric('vectorize_pool_cancelled_jobs_total', { reason: 'cancelled', stage });
      const [queuedBefore, runningBefore] = [await count('queued'), await count('running')];
      const running = await sendVectorize(api.port, { engine: 'spline' }, slow);
      await vi.waitFor(async () => expect((await setup.load()).busy).toBe(1), { timeout: 30_000 });
      const waiting = await sendVectorize(api.port, { engine: 'spline' }, slow);
      await vi.waitFor(async () => expect((await setup.load()).queued).toBe(1), { timeout: 30_000 });

      waiting.hangUp();
      await vi.waitFor(async () => expect(await count('queued')).toBe(queuedBefore + 1), { timeout: 10_000 });
      expect((await setup.load()).queued).toBe(0);
      running.hangUp();
      // Counted as cancelled while running: the trace was stopped, not waited out.
      await vi.waitFor(async () => expect(await count('running')).toBe(runningBefore + 1), { timeout: 10_000 });
      expect((await setup.load()).busy).toBe(0);
    });

    it('stops a job when the request has taken TRACE_TIMEOUT_MS, and says so with a 503', async () => {
      const short = await setup.start({ TRACE_TIMEOUT_MS: '1500' });
      const before = await setup.poolMetric('vectorize_pool_cancelled_jobs_total', { reason: 'deadline' });
      const late = await post(short.url, '/v1/vectorize', { engine: 'spline' }, slow);
      expect(late.status).toBe(503);
      expect((await json(late)).error).toMatch(/could not be processed within \d+ s/);
      // Generous: a bound for a metric that never moves, not for this machine's speed.
      await vi.waitFor(
        async () =>
          expect(await setup.poolMetric('vectorize_pool_cancelled_jobs_total', { reason: 'deadline' })).toBeGreaterThan(
            before,
          ),
        { timeout: 30_000 },
      );
    });
  });
});
