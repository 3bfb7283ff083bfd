import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSharedState, type SharedState } from '../src/index.ts';
import { deleteKeysWithPrefix, rawRedis, redisUrl, runPrefix, spyLogger } from './support.ts';

// Generous bound for "fails fast": the point is "seconds, not a hang".
const FAIL_FAST_MS = 6_000;

const opened: SharedState[] = [];
const open = (url: string, keyPrefix: string, logger = spyLogger()): SharedState => {
  const state = createSharedState({ redisUrl: url, keyPrefix, logger });
  opened.push(state);
  return state;
};
afterEach(async () => {
  await Promise.all(opened.splice(0).map((state) => state.close()));
});

async function elapsedMs(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

// These need no Redis at all, so they always run.
describe('redis backend against a dead server', () => {
  it('ping and commands reject quickly when nothing listens on the port', async () => {
    const logger = spyLogger();
    const state = open('redis://127.0.0.1:1', 'trove-test:dead:', logger);
    expect(state.backend).toBe('redis');
    const took = await elapsedMs(() => expect(state.ping()).rejects.toThrow());
    expect(took).toBeLessThan(FAIL_FAST_MS);
    await expect(state.rateLimit('k', { limit: 1, windowMs: 1000 })).rejects.toThrow();
    await expect(state.cacheGet('k')).rejects.toThrow();
    // One warning per outage, not one per reconnect attempt.
    expect(logger.warn).toHaveBeenCalledTimes(1);
    await state.close();
  });

  describe('when the server accepts connections but never answers', () => {
    let server: Server;
    const sockets = new Set<Socket>();
    beforeAll(async () => {
      server = createServer((socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    });

    it('ping rejects instead of hanging', async () => {
      const { port } = server.address() as AddressInfo;
      const state = open(`redis://127.0.0.1:${port}`, 'trove-test:silent:');
      const took = await elapsedMs(() => expect(state.ping()).rejects.toThrow());
      expect(took).toBeLessThan(FAIL_FAST_MS);
      await state.close();
    });
  });
});

describe.skipIf(!redisUrl)('redis backend internals', () => {
  const url = redisUrl ?? '';
  const prefix = runPrefix();
  let raw: Redis;
  beforeAll(() => {
    raw = rawRedis(url);
  });
  afterAll(async () => {
    await raw.quit();
    await deleteKeysWithPrefix(url, prefix);
  });

  it('stores a bucket as one hash under the prefix, expiring once it would be full', async () => {
    const state = open(url, prefix);
    await state.rateLimit('user:1', { limit: 10, windowMs: 60_000, cost: 3 });
    const key = `${prefix}ratelimit:user:1`;
    expect(await raw.type(key)).toBe('hash');
    expect(Object.keys(await raw.hgetall(key)).sort()).toEqual(['tokens', 'ts']);
    // 3 of 10 tokens spent: full again after 3/10 of the window.
    const ttl = await raw.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(18_000);
  });

  it('lets idle buckets disappear', async () => {
    const state = open(url, prefix);
    const key = `${prefix}ratelimit:idle`;
    await state.rateLimit('idle', { limit: 2, windowMs: 200 });
    // One of two tokens spent: refilled, and so expired, after 100 ms.
    expect(await raw.pttl(key)).toBeLessThanOrEqual(100);
    await expect.poll(() => raw.exists(key), { timeout: 3_000 }).toBe(0);
  });

  it('stores cache entries under the prefix with a millisecond TTL', async () => {
    const state = open(url, prefix);
    await state.cacheSet('page', 'html', 30_000);
    const key = `${prefix}cache:page`;
    expect(await raw.get(key)).toBe('html');
    const ttl = await raw.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });

  it('survives SCRIPT FLUSH (EVALSHA falls back to EVAL)', async () => {
    const state = open(url, prefix);
    const rule = { limit: 5, windowMs: 60_000 };
    expect(await state.rateLimit('flush', rule)).toMatchObject({ allowed: true, remaining: 4 });
    await raw.script('FLUSH');
    expect(await state.rateLimit('flush', rule)).toMatchObject({ allowed: true, remaining: 3 });
  });

  it('subscribes once per channel and unsubscribes when the last handler leaves', async () => {
    const state = open(url, prefix);
    const channel = `${prefix}events`;
    const numsub = async () => Number(((await raw.pubsub('NUMSUB', channel)) as unknown[])[1]);
    const first = await state.subscribe('events', () => {});
    const second = await state.subscribe('events', () => {});
    expect(await numsub()).toBe(1);
    await first();
    expect(await numsub()).toBe(1);
    await second();
    expect(await numsub()).toBe(0);
  });

  it('names its connections after the prefix, opening the subscriber lazily', async () => {
    const keyPrefix = `${prefix}names:`;
    const state = open(url, keyPrefix);
    await state.ping();
    const names = async () => String(await raw.client('LIST'));
    expect(await names()).toContain(`name=${keyPrefix}cmd `);
    expect(await names()).not.toContain(`name=${keyPrefix}sub `);
    await state.subscribe('events', () => {});
    expect(await names()).toContain(`name=${keyPrefix}sub `);
    await state.close();
    // The server notices the closed sockets asynchronously.
    await expect.poll(names, { timeout: 3_000 }).not.toContain(keyPrefix);
  });
});
