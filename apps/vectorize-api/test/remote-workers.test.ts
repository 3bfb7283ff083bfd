/**
 * vectorize-api with VECTORIZER_WORKER_URL naming two real vectorizer-worker processes on loopback:
 * round robin, retries on the other worker, a worker killed mid-burst, and outputs identical to
 * tracing in process.
 */
import { readFileSync } from 'node:fs';
import { type ClientFor, createClient } from '@trove/grpc-kit';
import { TracerService } from '@trove/proto/vectorize/v1';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { metricValue, type RunningWorker, startVectorizerWorker } from '../../../tests/support/vectorizer-worker.ts';
import { buildApp, encode } from './helpers.ts';
import { type ListeningApp, listen, noise } from './tracing-helpers.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../packages/vectorize/fixtures/${name}`, import.meta.url));
const TIMEOUT_MS = 60_000;

interface Health {
  status: string;
  tracing: Record<string, unknown>;
}

async function post(url: string, fields: Record<string, string>, file: Buffer, signal?: AbortSignal) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(file)]), 'upload');
  return fetch(`${url}/v1/vectorize`, { method: 'POST', body: form, signal });
}

const health = async (url: string) => (await (await fetch(`${url}/v1/health`)).json()) as Health;
const traces = (worker: RunningWorker) => metricValue(worker.httpUrl, 'vectorize_trace_seconds_count');

describe('vectorize-api on two vectorizer-worker processes', () => {
  const workers: RunningWorker[] = [];
  let remote: ListeningApp;
  let local: ListeningApp;
  let a: RunningWorker;
  let b: RunningWorker;

  beforeAll(async () => {
    [a, b] = await Promise.all([
      startVectorizerWorker({ TRACE_THREADS: '1', QUEUE_LENGTH: '2' }),
      startVectorizerWorker({ TRACE_THREADS: '1', QUEUE_LENGTH: '2' }),
    ]);
    workers.push(a, b);
    remote = await listen(
      await buildApp({ VECTORIZER_WORKER_URL: `${a.target},dns:///${b.target}`, TRACE_TIMEOUT_MS: String(TIMEOUT_MS) }),
    );
    local = await listen(await buildApp({ TRACE_WORKERS: '1' }));
  });
  afterAll(async () => {
    await remote?.app.close();
    await local?.app.close();
    await Promise.all(workers.map((worker) => worker.kill()));
  });

  it('reports both workers and their spare capacity in /v1/health and /readyz', async () => {
    const tracing = { mode: 'remote', workers: 2, workers_reachable: 2, threads: 2, queue_length: 4 };
    expect(await health(remote.url)).toMatchObject({ status: 'ok', tracing: { ...tracing, spare_capacity: 6 } });
    const ready = await (await fetch(`${remote.url}/readyz`)).json();
    expect(ready).toMatchObject({ status: 'ready', checks: { tracer: 'ok' }, details: { tracer: tracing } });
  });

  it('answers byte for byte what the in-process pool answers, in every format', async () => {
    // svgo on a photo takes seconds: the photo is compared unoptimised and as PDF, the logo optimised and as EPS.
    const cases: [string, Record<string, string>][] = [
      ['photo-like-480x320.png', { optimize: 'false' }],
      ['photo-like-480x320.png', { format: 'pdf' }],
      ['logo-aa-256.png', {}],
      ['logo-aa-256.png', { format: 'eps', preset: 'poster' }],
    ];
    for (const [file, fields] of cases) {
      const [there, here] = await Promise.all([
        post(remote.url, fields, fixture(file)),
        post(local.url, fields, fixture(file)),
      ]);
      expect([there.status, here.status]).toEqual([200, 200]);
      const [remoteBytes, localBytes] = [Buffer.from(await there.arrayBuffer()), Buffer.from(await here.arrayBuffer())];
      if (!fields.format) {
        // The JSON differs in processing_time_ms only.
        const [r, l] = [JSON.parse(remoteBytes.toString()), JSON.parse(localBytes.toString())];
        expect(r.svg).toBe(l.svg);
        expect({ ...r.metadata, processing_time_ms: 0 }).toEqual({ ...l.metadata, processing_time_ms: 0 });
      } else expect(remoteBytes.equals(localBytes), `${file} ${JSON.stringify(fields)}`).toBe(true);
    }
  });

  it('spreads requests over both workers', async () => {
    const before = await Promise.all([traces(a), traces(b)]);
    const png = fixture('icon-flat-64.png');
    for (let i = 0; i < 4; i++) expect((await post(remote.url, {}, png)).status).toBe(200);
    const after = await Promise.all([traces(a), traces(b)]);
    expect(after[0] - (before[0] as number)).toBeGreaterThanOrEqual(1);
    expect(after[1] - (before[1] as number)).toBeGreaterThanOrEqual(1);
    expect(after[0] + after[1] - (before[0] as number) - (before[1] as number)).toBe(4);
  });

  it('retries a call that a full worker refuses on the other one', async () => {
    // Worker a is filled from outside vectorize-api: one job running, two waiting.
    const direct: ClientFor<typeof TracerService> = createClient(TracerService, a.target);
    const filler = new AbortController();
    const slow = noise(500);
    const jobs = Array.from({ length: 3 }, () =>
      direct
        .trace(
          { width: slow.width, height: slow.height, rgba: slow.data as Uint8Array, options: { engine: 'spline' } },
          { signal: filler.signal },
        )
        .catch(() => undefined),
    );
    try {
      await vi.waitFor(async () => expect((await direct.getCapacity({})).queued).toBe(2), { timeout: 30_000 });
      const retriedBefore = await metricValue(remote.url, 'vectorize_worker_retries_total', { reason: 'busy' });
      const png = fixture('icon-flat-64.png');
      // Round robin sends one of two calls in a row to a first.
      for (let i = 0; i < 2; i++) expect((await post(remote.url, {}, png)).status).toBe(200);
      expect(await metricValue(remote.url, 'vectorize_worker_retries_total', { reason: 'busy' })).toBeGreaterThan(
        retriedBefore,
      );
      expect(await metricValue(a.httpUrl, 'vectorize_pool_refused_jobs_total')).toBeGreaterThanOrEqual(1);
    } finally {
      filler.abort();
      await Promise.all(jobs);
      direct.close();
    }
  });

  it('when a worker is killed during a burst, every request gets a traced answer or a clear 503, none hangs', async () => {
    const png = await encode(noise(260, 3), 'png');
    const lostBefore = await metricValue(remote.url, 'vectorize_worker_retries_total', { reason: 'lost' });
    const started = Date.now();
    const burst = Array.from({ length: 8 }, async () => {
      // The client's own guard: an answer later than the request's deadline (plus slack) counts as hanging.
      const response = await post(remote.url, { engine: 'spline' }, png, AbortSignal.timeout(TIMEOUT_MS + 15_000));
      return { status: response.status, body: await response.text(), headers: response.headers };
    });
    await vi.waitFor(async () => expect(await metricValue(a.httpUrl, 'vectorize_pool_busy_workers')).toBe(1), {
      timeout: 30_000,
    });
    expect(await a.kill()).toEqual({ code: null, signal: 'SIGKILL' });
    const answers = await Promise.all(burst);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 15_000);
    for (const answer of answers) {
      if (answer.status === 200) expect(JSON.parse(answer.body).svg).toMatch(/^<svg /);
      else {
        expect(answer.status, answer.body).toBe(503);
        expect(JSON.parse(answer.body).error).toMatch(/busy|cannot be reached/);
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
    }
    expect(answers.some((answer) => answer.status === 200)).toBe(true);
    // The job a was running when it died went to b.
    expect(await metricValue(remote.url, 'vectorize_worker_retries_total', { reason: 'lost' })).toBeGreaterThan(
      lostBefore,
    );
    await vi.waitFor(
      async () => expect((await health(remote.url)).tracing).toMatchObject({ workers: 2, workers_reachable: 1 }),
      {
        timeout: 10_000,
      },
    );
    expect((await post(remote.url, {}, fixture('icon-flat-64.png'))).status).toBe(200);
  });

  it('with no worker left, still answers health (degraded) and refuses traces with 503 and Retry-After', async () => {
    await b.kill();
    await vi.waitFor(
      async () =>
        expect(await health(remote.url)).toMatchObject({ status: 'degraded', tracing: { workers_reachable: 0 } }),
      {
        timeout: 10_000,
      },
    );
    const ready = await fetch(`${remote.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ checks: { tracer: 'degraded' } });
    const refused = await post(remote.url, {}, fixture('icon-flat-64.png'));
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: string }).error).toMatch(/tracing workers cannot be reached/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
