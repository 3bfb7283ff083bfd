import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { missing } from '../../../tests/support/requirements.ts';
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
    const took = await elapsedMs(() =>
      expect(state.ping()).rejects.toThrow('Redis at redis://127.0.0.1:1 unreachable: connect ECONNREFUSED'),
    );
    expect(took).toBeLessThan(FAIL_FAST_MS);
    await expect(state.cacheGet('k')).rejects.toThrow('Redis at redis://127.0.0.1:1 unreachable');
    // Rate limits fall back to a bucket in this process, which still limits.
    const rule = { limit: 1, windowMs: 60_000 };
    expect(await state.rateLimit('k', rule)).toMatchObject({ allowed: true, shared: false });
    expect(await state.rateLimit('k', rule)).toMatchObject({ allowed: false, shared: false });
    // One warning per outage for the connection, one as the circuit opens (three failures in a
    // row: later calls skip Redis at once), one for the fallback; not one per attempt.
    expect(logger.warn.mock.calls.map(([, msg]) => msg)).toEqual([
      'shared-state: Redis at redis://127.0.0.1:1 unreachable; reconnecting in the background',
      'shared-state: Redis at redis://127.0.0.1:1 stopped answering; requests go on without it (rate limits per process, no live updates, no shared cache) until it answers again',
      'shared-state: rate limits are decided by this process alone until Redis is back',
    ]);
    expect(state.subscriptionEpoch()).toBeUndefined();
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

    it('opens its circuit after three timeouts in a row, then fails at once and falls back', async () => {
      const { port } = server.address() as AddressInfo;
      const state = open(`redis://127.0.0.1:${port}`, 'trove-test:silent:');
      for (let i = 0; i < 3; i++) await expect(state.cacheGet('k')).rejects.toThrow();
      expect(state.circuits.map((c) => [c.name, c.state])).toEqual([['redis', 'open']]);
      const took = await elapsedMs(async () => {
        await expect(state.cacheGet('k')).rejects.toThrow('circuit open');
        expect(await state.rateLimit('k', { limit: 5, windowMs: 1_000 })).toMatchObject({
          allowed: true,
          shared: false,
        });
      });
      expect(took).toBeLessThan(50);
      await state.close();
    });
  });
});

describe.skipIf(missing('redis'))('redis backend internals', () => {
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
    // Pub/sub is server-wide, so the database number is part of the channel name.
    const channel = `${prefix}db0:events`;
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

  it('keeps deployments on other databases of one server apart, though pub/sub ignores the number', async () => {
    const keyPrefix = `${prefix}dbs:`;
    const db1 = (n: number) => `${url.replace(/\/\d*$/, '')}/${n}`;
    const [onZero, onOne, alsoOnOne] = [open(db1(0), keyPrefix), open(db1(1), keyPrefix), open(db1(1), keyPrefix)];
    const heard: string[] = [];
    await onZero.subscribe('live', (m) => heard.push(`0:${m}`));
    await onOne.subscribe('live', (m) => heard.push(`1:${m}`));
    await alsoOnOne.publish('live', 'from db 1');
    await expect.poll(() => heard, { timeout: 3_000 }).toEqual(['1:from db 1']);
  });

  it('changes its subscription epoch when the subscriber connection comes back', async () => {
    const keyPrefix = `${prefix}epoch:`;
    const state = open(url, keyPrefix);
    expect(state.subscriptionEpoch()).toBeUndefined();
    await state.subscribe('events', () => {});
    const first = state.subscriptionEpoch();
    expect(first).toBeTypeOf('number');
    const list = String(await raw.client('LIST'));
    const id = new RegExp(`id=(\\d+) [^\\n]*name=${keyPrefix}sub `).exec(list)?.[1];
    expect(id).toBeDefined();
    await raw.client('KILL', 'ID', id as string);
    await expect.poll(() => state.subscriptionEpoch(), { timeout: 10_000 }).toBe((first as number) + 1);
  });
});
