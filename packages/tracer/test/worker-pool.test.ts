import type { RgbaImage } from '@trove/vectorize';
import { vectorize } from '@trove/vectorize';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TracerBusyError, TracerInputError, TracerTimeoutError } from '../src/errors.ts';
import { unpackPaths } from '../src/packed-paths.ts';
import { WorkerPool } from '../src/pool/worker-pool.ts';
import { flatImage, noise } from './images.ts';

// Random colours everywhere: the spline engine needs seconds for this, so a job stays running.
const slow = noise(600);
const small = flatImage();
const pools: WorkerPool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close();
});

function pool(size: number, queueLength: number): WorkerPool {
  const made = new WorkerPool({ size, queueLength });
  pools.push(made);
  return made;
}

/** A copy with a buffer of its own, as a decoder hands over. */
const own = (image: RgbaImage): RgbaImage => ({ ...image, data: new Uint8Array(image.data) });

describe('WorkerPool', () => {
  it('traces on a worker thread, refuses work beyond the queue, and cancels queued and running jobs', async () => {
    const workers = pool(1, 1);
    const result = await workers.trace(small, {}, { includePaths: true });
    expect(result.engineUsed).toBe('pixel-exact');
    expect(result.pathCount).toBe(4);
    expect(unpackPaths(result.paths ?? expect.fail('no paths')).map((path) => path.color)).toContainEqual({
      r: 220,
      g: 30,
      b: 40,
      a: 255,
    });
    // Without includePaths the list stays in the thread.
    expect((await workers.trace(small, {})).paths).toBeUndefined();

    const running = new AbortController();
    const queued = new AbortController();
    const first = workers.trace(slow, { engine: 'spline' }, { signal: running.signal });
    const second = workers.trace(slow, { engine: 'spline' }, { signal: queued.signal });
    expect(workers.busy).toBe(1);
    expect(workers.queued).toBe(1);
    expect(workers.status()).toMatchObject({ threads: 1, queueLength: 1, busy: 1, queued: 1, spare: 0 });
    const refused = await workers.trace(small, {}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TracerBusyError);
    expect((refused as TracerBusyError).retryAfterSeconds).toBeGreaterThan(0);
    expect(workers.refused).toBe(1);

    queued.abort();
    await expect(second).rejects.toMatchObject({ name: 'AbortError' });
    expect(workers.queued).toBe(0);
    running.abort();
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    expect(workers.busy).toBe(0);
    expect(workers.cancelled).toBe(2);
    // The stopped worker was replaced: the pool still works at full size.
    expect(workers.size).toBe(1);
    expect((await workers.trace(small, {})).pathCount).toBe(4);
  });

  it('stops a job at its deadline, queued or running, and says so', async () => {
    const workers = pool(1, 1);
    const deadline = Date.now() + 300;
    const jobs = await Promise.allSettled([
      workers.trace(slow, { engine: 'spline' }, { deadline }),
      workers.trace(slow, { engine: 'spline' }, { deadline }),
    ]);
    for (const job of jobs) expect((job as PromiseRejectedResult).reason).toBeInstanceOf(TracerTimeoutError);
    expect(workers.cancelled).toBe(2);
    expect(workers.busy).toBe(0);
    await expect(workers.trace(small, {}, { deadline: Date.now() - 1 })).rejects.toBeInstanceOf(TracerTimeoutError);
    expect((await workers.trace(small, {}, { deadline: Date.now() + 60_000 })).pathCount).toBe(4);
  });

  it('hands the pixels over when asked, copies them otherwise, and traces the same either way', async () => {
    const workers = pool(1, 0);
    const kept = own(small);
    const copied = await workers.trace(kept, {}, { document: 'eps' });
    expect(kept.data.byteLength).toBe(small.data.byteLength);

    const handed = own(small);
    const transferred = await workers.trace(handed, {}, { document: 'eps', transferPixels: true });
    // Detached: the thread owns the buffer now; nothing was copied.
    expect(handed.data.byteLength).toBe(0);
    expect(transferred).toEqual(copied);
    expect(transferred.svg).toBe(vectorize(small, {}).svg);

    // A view on Node's shared buffer pool cannot move: it is copied, and the job still runs.
    const pooled = Buffer.from(small.data);
    const view = { ...small, data: new Uint8Array(pooled.buffer, pooled.byteOffset, pooled.byteLength) };
    expect((await workers.trace(view, {}, { transferPixels: true })).svg).toBe(copied.svg);
  });

  it('optimises in the trace job when asked, and writes documents beside it', async () => {
    const workers = pool(1, 0);
    const plain = await workers.trace(small, { engine: 'spline' });
    const settings = { preset: 'default', multipass: false, iterations: 10 } as const;
    const optimised = await workers.trace(small, { engine: 'spline' }, { optimize: settings });
    expect(optimised.svg.length).toBeLessThan(plain.svg.length);
    expect(await workers.optimize(plain.svg, settings)).toEqual({ svg: optimised.svg, removed: 0 });
    const pdf = await workers.trace(small, { engine: 'spline' }, { document: 'pdf' });
    const again = await workers.trace(small, { engine: 'spline' }, { document: 'pdf' });
    expect(
      Buffer.from(pdf.document ?? [])
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    // The same paths give the same file: no time of writing inside.
    expect(Buffer.from(again.document ?? []).equals(Buffer.from(pdf.document ?? []))).toBe(true);
  });

  it('passes input errors back worded for the caller, and keeps working', async () => {
    const workers = pool(1, 0);
    const broken = { width: 4, height: 4, data: new Uint8Array(3) };
    await expect(workers.trace(broken, {})).rejects.toBeInstanceOf(TracerInputError);
    const bad = await workers
      .optimize('<svg><g></svg>', { preset: 'default', multipass: false, iterations: 1 })
      .catch((e) => e);
    expect(bad).toBeInstanceOf(TracerInputError);
    expect(bad.message).toMatch(/^the SVG could not be parsed: /);
    expect(bad.message).not.toContain('\n');
    await vi.waitFor(async () => expect((await workers.trace(small, {})).pathCount).toBe(4), { timeout: 30_000 });
  });
});
