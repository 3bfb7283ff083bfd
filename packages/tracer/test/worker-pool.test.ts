import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RgbaImage } from '@trove/vectorize';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { unpackPaths } from '../src/tracing/packed-paths.ts';
import { TracerBusyError } from '../src/tracing/tracer.ts';
import { WorkerPool } from '../src/tracing/worker-pool.ts';
import { buildApp, encode, flatTestImage, multipart, postForm } from './helpers.ts';

/** Random colours everywhere: the spline engine needs seconds for this, so a job stays running. */
function noise(size: number): RgbaImage {
  const data = new Uint8Array(size * size * 4);
  let seed = 7;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    data[i] = i % 4 === 3 ? 255 : seed >>> 24;
  }
  return { width: size, height: size, data };
}

const slow = noise(900);
const small = flatTestImage();
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('WorkerPool', () => {
  it('traces on a worker thread, refuses work beyond the queue, and cancels queued and running jobs', async () => {
    const pool = new WorkerPool({ size: 1, queueLength: 1 });
    closers.push(() => pool.close());
    const result = await pool.trace(small, {});
    expect(result.engineUsed).toBe('pixel-exact');
    expect(result.pathCount).toBe(4);
    expect(unpackPaths(result.paths).map((path) => path.color)).toContainEqual({ r: 220, g: 30, b: 40, a: 255 });

    const running = new AbortController();
    const queued = new AbortController();
    const first = pool.trace(slow, { engine: 'spline' }, running.signal);
    const second = pool.trace(slow, { engine: 'spline' }, queued.signal);
    expect(pool.busy).toBe(1);
    expect(pool.queued).toBe(1);
    const refused = await pool.trace(small, {}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TracerBusyError);
    expect((refused as TracerBusyError).retryAfterSeconds).toBeGreaterThan(0);

    expect(pool.refused).toBe(1);
    queued.abort();
    await expect(second).rejects.toMatchObject({ name: 'AbortError' });
    expect(pool.queued).toBe(0);
    running.abort();
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    expect(pool.busy).toBe(0);
    expect(pool.cancelled).toBe(2);
    // The stopped worker was replaced: the pool still works at full size.
    expect(pool.size).toBe(1);
    expect((await pool.trace(small, {})).pathCount).toBe(4);
  });

  it('passes engine errors back with their name', async () => {
    const pool = new WorkerPool({ size: 1, queueLength: 0 });
    closers.push(() => pool.close());
    const broken = { width: 4, height: 4, data: new Uint8Array(3) };
    await expect(pool.trace(broken, {})).rejects.toMatchObject({ name: 'VectorizeInputError' });
  });
});

describe('the pool behind HTTP', () => {
  it('answers 503 with Retry-After when every worker is busy and the queue is full', async () => {
    const pool = new WorkerPool({ size: 1, queueLength: 0 });
    const app = await buildApp({}, pool);
    closers.push(() => app.close());
    const slowPng = await encode(slow, 'png');
    const first = postForm(app, '/v1/vectorize', { engine: 'spline' }, { bytes: slowPng });
    await vi.waitFor(() => expect(pool.busy).toBe(1), { timeout: 10_000 });
    const refused = await postForm(app, '/v1/vectorize', {}, { bytes: await encode(small, 'png') });
    expect(refused.statusCode).toBe(503);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.json().error).toMatch(/busy/);
    // Health checks do not go through the pool.
    expect((await app.inject('/v1/health')).statusCode).toBe(200);
    await app.close();
    await first;
  });

  it('drops the queued job and stops the running one when their clients disconnect', async () => {
    const pool = new WorkerPool({ size: 1, queueLength: 1 });
    const app = await buildApp({}, pool);
    closers.push(() => app.close());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const body = await multipart({ engine: 'spline' }, { bytes: await encode(slow, 'png') });

    const send = () => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/vectorize',
        headers: body.headers,
      });
      req.on('error', () => {});
      req.end(body.payload);
      return req;
    };
    const running = send();
    await vi.waitFor(() => expect(pool.busy).toBe(1), { timeout: 10_000 });
    const waiting = send();
    await vi.waitFor(() => expect(pool.queued).toBe(1), { timeout: 10_000 });

    waiting.destroy();
    await vi.waitFor(() => expect(pool.cancelled).toBe(1), { timeout: 10_000 });
    expect(pool.queued).toBe(0);
    running.destroy();
    // Counted as cancelled (not completed): the running trace was stopped, not waited out.
    await vi.waitFor(() => expect(pool.cancelled).toBe(2), { timeout: 10_000 });
    expect(pool.busy).toBe(0);
  });
});
