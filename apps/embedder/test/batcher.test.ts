/**
 * The batching policy of DynamicBatcher, in process with a model function that records what it is
 * given: who is held for the window, who joins whom, and what leaves the queue unrun.
 */
import { describe, expect, it } from 'vitest';
import { DynamicBatcher } from '../src/batcher.ts';

function recordingBatcher(windowMs: number, options: { maxBatch?: number; queueLength?: number } = {}) {
  const batches: string[][] = [];
  const dropped: number[] = [];
  const batcher = new DynamicBatcher({
    run: async (texts) => {
      batches.push(texts);
      return texts.map((t) => Float32Array.of(t.length));
    },
    windowMs,
    maxBatch: options.maxBatch ?? 100,
    queueLength: options.queueLength ?? 100,
    observer: { batch: () => {}, queueWait: () => {}, dropped: (n) => dropped.push(n) },
  });
  return { batcher, batches, dropped };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('DynamicBatcher', () => {
  it('holds the first call for the window so that calls arriving meanwhile share its batch', async () => {
    const { batcher, batches } = recordingBatcher(1_000);
    const first = batcher.submit(['a']);
    await sleep(30);
    const second = batcher.submit(['bb', 'ccc']);
    expect(batches).toEqual([]); // still inside the window
    expect(await first).toEqual([Float32Array.of(1)]);
    expect(await second).toEqual([Float32Array.of(2), Float32Array.of(3)]);
    expect(batches).toEqual([['a', 'bb', 'ccc']]);
  });

  it('stops holding callers who come alone, and holds again once several come together', async () => {
    const { batcher, batches } = recordingBatcher(1_000);
    await batcher.submit(['held']); // no history yet: held for the window, and nobody else comes
    expect(batches).toEqual([['held']]);
    const alone = batcher.submit(['alone']); // the last batch held one call: no window now
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([['held'], ['alone']]);
    await alone;

    // Calls submitted in the same turn of the event loop form one batch even when not held...
    await Promise.all([batcher.submit(['x']), batcher.submit(['y'])]);
    expect(batches.at(-1)).toEqual(['x', 'y']);
    // ...and after such a batch the window applies again.
    const held = batcher.submit(['z']);
    await sleep(50);
    expect(batches.at(-1)).toEqual(['x', 'y']);
    await held;
    expect(batches.at(-1)).toEqual(['z']);
  });

  it('takes a cancelled call out of the queue at once, never running it, and frees its place', async () => {
    const { batcher, batches, dropped } = recordingBatcher(200, { queueLength: 1 });
    const aborter = new AbortController();
    const gone = batcher.submit(['gone'], aborter.signal).catch((e) => e);
    await expect(batcher.submit(['refused'])).rejects.toThrow(/QUEUE_LENGTH=1/);
    aborter.abort(new Error('caller left'));
    expect(((await gone) as Error).message).toBe('caller left');
    expect(dropped).toEqual([1]);
    expect(await batcher.submit(['kept'])).toEqual([Float32Array.of(4)]);
    expect(batches).toEqual([['kept']]);
  });

  it('refuses a call whose signal is already aborted without queueing it', async () => {
    const { batcher, batches, dropped } = recordingBatcher(0);
    await expect(batcher.submit(['late'], AbortSignal.abort(new Error('expired')))).rejects.toThrow('expired');
    expect(dropped).toEqual([1]);
    expect(batches).toEqual([]);
  });

  it('never splits a call and keeps batches within maxBatch texts', async () => {
    const { batcher, batches } = recordingBatcher(50, { maxBatch: 4 });
    const calls = [['a', 'b', 'c'], ['d', 'e'], ['f'], ['g', 'h', 'i', 'j', 'k']];
    const answers = await Promise.all(calls.map((texts) => batcher.submit(texts)));
    expect(answers.map((a) => a.length)).toEqual([3, 2, 1, 5]);
    expect(batches).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
      ['g', 'h', 'i', 'j', 'k'],
    ]);
  });
});
