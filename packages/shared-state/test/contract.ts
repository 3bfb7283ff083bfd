import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RateLimitRule, SharedState, SharedStateLogger } from '../src/index.ts';
import { runPrefix, sleep, spyLogger, waitFor } from './support.ts';

export interface OpenOptions {
  keyPrefix: string;
  logger: SharedStateLogger;
}

export interface ContractOptions {
  skip?: boolean;
  /** Runs once after the suite with the prefix every key of the run starts with. */
  cleanup?: (prefix: string) => Promise<void>;
}

/**
 * The behaviour every backend must have. `open` creates a new handle on the
 * SAME backend each time it is called: handles opened with the same prefix
 * behave like replicas of one service, other prefixes like other services.
 */
export function describeSharedStateContract(
  name: string,
  open: (options: OpenOptions) => SharedState,
  { skip = false, cleanup }: ContractOptions = {},
): void {
  describe.skipIf(skip)(`SharedState contract: ${name}`, () => {
    const prefix = runPrefix();
    const opened: SharedState[] = [];
    let counter = 0;

    /** A fresh service namespace per test, so tests never see each other's keys. */
    const newPrefix = (): string => `${prefix}${++counter}:`;
    const handle = (keyPrefix = newPrefix(), logger: SharedStateLogger = spyLogger()): SharedState => {
      const state = open({ keyPrefix, logger });
      opened.push(state);
      return state;
    };
    /** Two replicas of the same service. */
    const replicas = (): [SharedState, SharedState] => {
      const keyPrefix = newPrefix();
      return [handle(keyPrefix), handle(keyPrefix)];
    };

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((state) => state.close()));
    });
    afterAll(async () => {
      await cleanup?.(prefix);
    });

    describe('cache', () => {
      it('stores, overwrites and deletes values', async () => {
        const state = handle();
        expect(await state.cacheGet('missing')).toBeNull();
        await state.cacheSet('k', 'v1', 60_000);
        expect(await state.cacheGet('k')).toBe('v1');
        await state.cacheSet('k', 'v2', 60_000);
        expect(await state.cacheGet('k')).toBe('v2');
        await state.cacheDelete('k');
        expect(await state.cacheGet('k')).toBeNull();
        await expect(state.cacheDelete('never-set')).resolves.toBeUndefined();
      });

      it('is shared between replicas', async () => {
        const [a, b] = replicas();
        await a.cacheSet('k', 'from-a', 60_000);
        expect(await b.cacheGet('k')).toBe('from-a');
        await b.cacheDelete('k');
        expect(await a.cacheGet('k')).toBeNull();
      });

      it('expires entries after their ttl', async () => {
        const state = handle();
        await state.cacheSet('short', 'x', 200);
        await state.cacheSet('long', 'y', 60_000);
        await sleep(600);
        expect(await state.cacheGet('short')).toBeNull();
        expect(await state.cacheGet('long')).toBe('y');
      });

      it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('rejects ttlMs %s with a TypeError', async (ttl) => {
        const state = handle();
        await expect(state.cacheSet('k', 'v', ttl)).rejects.toThrow(TypeError);
        await expect(state.cacheSet('k', 'v', ttl)).rejects.toThrow(/ttlMs/);
        expect(await state.cacheGet('k')).toBeNull();
      });
    });

    describe('rateLimit', () => {
      // A long window makes refill during the test negligible (10 tokens per minute).
      const slow = { limit: 5, windowMs: 60_000 };

      it('allows exactly `limit` calls, then refuses with a bounded retryAfterMs', async () => {
        const state = handle();
        for (let i = 1; i <= slow.limit; i++) {
          expect(await state.rateLimit('k', slow)).toEqual({
            allowed: true,
            remaining: slow.limit - i,
            retryAfterMs: 0,
            shared: true,
          });
        }
        const refused = await state.rateLimit('k', slow);
        expect(refused.allowed).toBe(false);
        expect(refused.remaining).toBe(0);
        expect(refused.retryAfterMs).toBeGreaterThan(0);
        expect(refused.retryAfterMs).toBeLessThanOrEqual(slow.windowMs);
      });

      it('refills as time passes', async () => {
        const state = handle();
        const rule = { limit: 2, windowMs: 400 };
        expect((await state.rateLimit('k', rule)).allowed).toBe(true);
        expect((await state.rateLimit('k', rule)).allowed).toBe(true);
        const refused = await state.rateLimit('k', rule);
        expect(refused.allowed).toBe(false);
        expect(refused.retryAfterMs).toBeGreaterThan(0);
        expect(refused.retryAfterMs).toBeLessThanOrEqual(rule.windowMs);
        // Time only moves forward, so after retryAfterMs (plus slack) a token is certainly back.
        await sleep(refused.retryAfterMs + 150);
        expect((await state.rateLimit('k', rule)).allowed).toBe(true);
      });

      it('charges `cost` tokens and does not charge refused calls', async () => {
        const state = handle();
        const rule = { limit: 10, windowMs: 60_000, cost: 4 };
        expect(await state.rateLimit('k', rule)).toMatchObject({ allowed: true, remaining: 6 });
        expect(await state.rateLimit('k', rule)).toMatchObject({ allowed: true, remaining: 2 });
        const refused = await state.rateLimit('k', rule);
        expect(refused).toMatchObject({ allowed: false, remaining: 2 });
        // Two tokens missing at 10 per minute: about 12 s.
        expect(refused.retryAfterMs).toBeGreaterThan(0);
        expect(refused.retryAfterMs).toBeLessThanOrEqual(12_000);
        expect(await state.rateLimit('k', { ...rule, cost: 2 })).toMatchObject({ allowed: true, remaining: 0 });
      });

      it('keeps separate keys independent', async () => {
        const state = handle();
        const rule = { limit: 1, windowMs: 60_000 };
        expect((await state.rateLimit('a', rule)).allowed).toBe(true);
        expect((await state.rateLimit('a', rule)).allowed).toBe(false);
        expect((await state.rateLimit('b', rule)).allowed).toBe(true);
      });

      const badRules: [string, RateLimitRule, RegExp][] = [
        ['limit 0', { limit: 0, windowMs: 1000 }, /limit/],
        ['fractional limit', { limit: 1.5, windowMs: 1000 }, /limit/],
        ['NaN limit', { limit: Number.NaN, windowMs: 1000 }, /limit/],
        ['windowMs 0', { limit: 5, windowMs: 0 }, /windowMs/],
        ['negative windowMs', { limit: 5, windowMs: -10 }, /windowMs/],
        ['infinite windowMs', { limit: 5, windowMs: Number.POSITIVE_INFINITY }, /windowMs/],
        ['cost 0', { limit: 5, windowMs: 1000, cost: 0 }, /cost/],
        ['fractional cost', { limit: 5, windowMs: 1000, cost: 1.5 }, /cost/],
        ['cost above limit', { limit: 5, windowMs: 1000, cost: 6 }, /cost/],
      ];
      it.each(badRules)('rejects a bad rule (%s) with a TypeError', async (_label, rule, message) => {
        const state = handle();
        await expect(state.rateLimit('k', rule)).rejects.toThrow(TypeError);
        await expect(state.rateLimit('k', rule)).rejects.toThrow(message);
      });

      it('is atomic: 50 concurrent calls against limit 10 allow exactly 10', async () => {
        const state = handle();
        const rule = { limit: 10, windowMs: 60_000 };
        const results = await Promise.all(Array.from({ length: 50 }, () => state.rateLimit('burst', rule)));
        expect(results.filter((r) => r.allowed)).toHaveLength(10);
      });

      it('shares one bucket between replicas', async () => {
        const [a, b] = replicas();
        const rule = { limit: 3, windowMs: 60_000 };
        const results = await Promise.all([
          ...Array.from({ length: 5 }, () => a.rateLimit('user:1', rule)),
          ...Array.from({ length: 5 }, () => b.rateLimit('user:1', rule)),
        ]);
        expect(results.filter((r) => r.allowed)).toHaveLength(3);
        expect((await a.rateLimit('user:1', rule)).allowed).toBe(false);
        expect((await b.rateLimit('user:1', rule)).allowed).toBe(false);
      });
    });

    describe('pub/sub', () => {
      /** Subscribes and records what arrives. */
      const collect = async (state: SharedState, channel: string) => {
        const received: string[] = [];
        const unsubscribe = await state.subscribe(channel, (m) => received.push(m));
        return { received, unsubscribe };
      };

      it('delivers messages from one replica to another, in order', async () => {
        const [a, b] = replicas();
        const { received } = await collect(a, 'events');
        const sent = Array.from({ length: 20 }, (_, i) => `m${i}`);
        for (const message of sent) await b.publish('events', message);
        await waitFor(() => received.length === sent.length, 'all messages');
        expect(received).toEqual(sent);
      });

      it('unsubscribe removes only that handler (and is idempotent)', async () => {
        const [a, b] = replicas();
        const first = await collect(a, 'events');
        const second = await collect(a, 'events');
        await first.unsubscribe();
        await first.unsubscribe();
        await b.publish('events', 'after');
        // Both handlers hang off one connection/bus, so once the second has
        // the message the first would have had it too.
        await waitFor(() => second.received.includes('after'), 'delivery to the remaining handler');
        expect(first.received).toEqual([]);

        await second.unsubscribe();
        const other = await collect(a, 'other');
        await b.publish('events', 'nobody-listens');
        await b.publish('other', 'sentinel');
        await waitFor(() => other.received.includes('sentinel'), 'sentinel');
        expect(second.received).toEqual(['after']);
      });

      it('treats the same function subscribed twice as two subscriptions', async () => {
        const [a, b] = replicas();
        const received: string[] = [];
        const handler = (m: string) => received.push(m);
        const unsubscribeOnce = await a.subscribe('events', handler);
        await a.subscribe('events', handler);
        await b.publish('events', 'one');
        await waitFor(() => received.length === 2, 'two deliveries');
        await unsubscribeOnce();
        await b.publish('events', 'two');
        await waitFor(() => received.includes('two'), 'second message');
        expect(received).toEqual(['one', 'one', 'two']);
      });

      it('keeps delivering to other handlers when one throws, and logs it', async () => {
        const logger = spyLogger();
        const keyPrefix = newPrefix();
        const a = handle(keyPrefix, logger);
        const b = handle(keyPrefix);
        await a.subscribe('events', () => {
          throw new Error('boom');
        });
        const survivor = await collect(a, 'events');
        await b.publish('events', 'm1');
        await b.publish('events', 'm2');
        await waitFor(() => survivor.received.length === 2, 'delivery despite the throwing handler');
        expect(survivor.received).toEqual(['m1', 'm2']);
        expect(logger.warn).toHaveBeenCalledTimes(2);
        expect(logger.warn).toHaveBeenCalledWith(
          expect.objectContaining({ err: expect.objectContaining({ message: 'boom' }) }),
          expect.stringContaining('handler'),
        );
      });
    });

    it('isolates key prefixes (cache, limits, channels)', async () => {
      const errors = handle(newPrefix());
      const memory = handle(newPrefix());

      await errors.cacheSet('k', 'errors-value', 60_000);
      expect(await memory.cacheGet('k')).toBeNull();
      await memory.cacheDelete('k');
      expect(await errors.cacheGet('k')).toBe('errors-value');

      const rule = { limit: 1, windowMs: 60_000 };
      expect((await errors.rateLimit('k', rule)).allowed).toBe(true);
      expect((await errors.rateLimit('k', rule)).allowed).toBe(false);
      expect((await memory.rateLimit('k', rule)).allowed).toBe(true);

      const memoryEvents: string[] = [];
      await memory.subscribe('events', (m) => memoryEvents.push(m));
      await errors.publish('events', 'for-errors-only');
      // Published after the first one has been handed to subscribers, so if
      // the first leaked it would arrive before this one.
      await memory.publish('events', 'for-memory');
      await waitFor(() => memoryEvents.includes('for-memory'), 'own message');
      expect(memoryEvents).toEqual(['for-memory']);
    });

    it('pings while open; close is idempotent and later calls reject', async () => {
      const state = handle();
      await expect(state.ping()).resolves.toBeUndefined();
      const unsubscribe = await state.subscribe('events', () => {});
      await Promise.all([state.close(), state.close()]);
      await expect(state.close()).resolves.toBeUndefined();
      await expect(unsubscribe()).resolves.toBeUndefined();
      await expect(state.ping()).rejects.toThrow(/closed/);
      await expect(state.cacheGet('k')).rejects.toThrow(/closed/);
      await expect(state.rateLimit('k', { limit: 1, windowMs: 1000 })).rejects.toThrow(/closed/);
      await expect(state.publish('events', 'x')).rejects.toThrow(/closed/);
      await expect(state.subscribe('events', () => {})).rejects.toThrow(/closed/);
    });
  });
}
