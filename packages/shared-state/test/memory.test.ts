import { describe, expect, it } from 'vitest';
import { createSharedState, MemoryStore } from '../src/index.ts';
import { spyLogger } from './support.ts';

describe('memory backend', () => {
  it('is the default when no redisUrl is given (or it is empty)', async () => {
    for (const redisUrl of [undefined, '']) {
      const state = createSharedState({ redisUrl, keyPrefix: 'trove:test:', logger: spyLogger() });
      expect(state.backend).toBe('memory');
      await state.close();
    }
  });

  it('requires a non-empty keyPrefix', () => {
    expect(() => createSharedState({ keyPrefix: '' })).toThrow(TypeError);
  });

  it('gives each handle a private store unless one is shared', async () => {
    const a = createSharedState({ keyPrefix: 'svc:' });
    const b = createSharedState({ keyPrefix: 'svc:' });
    await a.cacheSet('k', 'v', 60_000);
    expect(await b.cacheGet('k')).toBeNull();
    await Promise.all([a.close(), b.close()]);
  });

  it('never runs handlers inside publish()', async () => {
    const state = createSharedState({ keyPrefix: 'svc:' });
    const received: string[] = [];
    await state.subscribe('events', (m) => received.push(m));
    const publishing = state.publish('events', 'm');
    expect(received).toEqual([]);
    await publishing;
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual(['m']);
    await state.close();
  });

  it('evicts idle buckets and expired cache entries', async () => {
    let now = 0;
    const store = new MemoryStore({ now: () => now, sweepIntervalMs: 1_000 });
    const state = createSharedState({ keyPrefix: 'svc:', memoryStore: store });
    for (let i = 0; i < 100; i++) {
      await state.rateLimit(`ip:${i}`, { limit: 10, windowMs: 500 });
      await state.cacheSet(`page:${i}`, 'html', 500);
    }
    await state.cacheSet('keep', 'v', 60_000);
    expect(store.size).toMatchObject({ buckets: 100, cache: 101 });

    now = 999; // everything has expired, but the next sweep is not due yet
    await state.rateLimit('trigger', { limit: 10, windowMs: 500 });
    expect(store.size.buckets).toBe(101);

    now = 1_000;
    await state.rateLimit('trigger', { limit: 10, windowMs: 500 });
    expect(store.size).toMatchObject({ buckets: 1, cache: 1 });
    expect(await state.cacheGet('keep')).toBe('v');
    await state.close();
  });

  it('treats an expired cache entry as missing before any sweep', async () => {
    let now = 0;
    const store = new MemoryStore({ now: () => now });
    const state = createSharedState({ keyPrefix: 'svc:', memoryStore: store });
    await state.cacheSet('k', 'v', 100);
    now = 99;
    expect(await state.cacheGet('k')).toBe('v');
    now = 100;
    expect(await state.cacheGet('k')).toBeNull();
    await state.close();
  });

  it('closing one handle leaves the other handles of a shared store working', async () => {
    const store = new MemoryStore();
    const a = createSharedState({ keyPrefix: 'svc:', memoryStore: store });
    const b = createSharedState({ keyPrefix: 'svc:', memoryStore: store });
    await a.subscribe('events', () => {});
    const received: string[] = [];
    await b.subscribe('events', (m) => received.push(m));
    await a.close();
    expect(store.size.channels).toBe(1);
    await b.publish('events', 'still-here');
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual(['still-here']);
    await b.close();
    expect(store.size.channels).toBe(0);
  });
});
