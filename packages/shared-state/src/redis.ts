import { CircuitBreaker } from '@trove/service-kit';
import type { Redis } from 'ioredis';
import { closedError } from './handlers.ts';
import { keyspace } from './keys.ts';
import { MemoryStore } from './memory-store.ts';
import { RedisUnreachableError, redisAddress, redisDatabase } from './redis-address.ts';
import { ConnectionWatch, closeConnection, openConnection } from './redis-connection.ts';
import { RedisSubscriber } from './redis-subscriber.ts';
import { TOKEN_BUCKET_LUA } from './token-bucket.ts';
import type { SharedState, SharedStateLogger } from './types.ts';
import { assertTtl, normalizeRule } from './validation.ts';

export interface RedisSharedStateOptions {
  redisUrl: string;
  keyPrefix: string;
  logger: SharedStateLogger;
}

/** The command connection, plus the script registered by defineCommand below. */
type CommandClient = Redis & {
  sharedStateTokenBucket(key: string, limit: number, windowMs: number, cost: number): Promise<unknown>;
};

/**
 * Shared by every replica pointing at the same Redis. Connects eagerly so a
 * wrong URL shows up in the logs at start-up, not on the first request.
 *
 * Fails safe: once connected, a command never waits for a Redis that has gone
 * (it fails at once with RedisUnreachableError naming the server), and rate
 * limits fall back to a bucket in this process until Redis is back.
 */
export function createRedisSharedState(options: RedisSharedStateOptions): SharedState {
  const { redisUrl, keyPrefix, logger } = options;
  // Pub/sub channels are server-wide: Redis ignores the database number for them, so it goes into
  // the channel name; otherwise two deployments on one server would hear each other.
  const keys = keyspace(keyPrefix, `${keyPrefix}db${redisDatabase(redisUrl)}:`);
  const client = openConnection(redisUrl, keyPrefix, 'cmd', logger) as CommandClient;
  const address = redisAddress(redisUrl);
  let openedAt = 0;
  const breaker = new CircuitBreaker({
    name: 'redis',
    // PING straight on the connection (the breaker would refuse it), bounded by the command timeout.
    probe: () => client.ping(),
    onChange: (state, err) => {
      if (state === 'open') {
        openedAt = Date.now();
        logger.warn(
          { err, redis: address, dependency: 'redis' },
          `shared-state: Redis at ${address} stopped answering; requests go on without it (rate limits per process, no live updates, no shared cache) until it answers again`,
        );
      } else {
        decidingLocally = false;
        (logger.info ?? logger.warn).call(
          logger,
          { redis: address, dependency: 'redis', outageMs: Date.now() - openedAt },
          `shared-state: Redis at ${address} answers again after ${((Date.now() - openedAt) / 1000).toFixed(1)} s`,
        );
      }
    },
  });
  const watch = new ConnectionWatch(client, redisUrl, breaker);
  const localBuckets = new MemoryStore();
  let decidingLocally = false;
  client.on('ready', () => {
    decidingLocally = false;
  });
  // defineCommand sends EVALSHA and falls back to EVAL (which also loads the
  // script) on NOSCRIPT, e.g. after a Redis restart or failover.
  client.defineCommand('sharedStateTokenBucket', { numberOfKeys: 1, lua: TOKEN_BUCKET_LUA });
  const subscriber = new RedisSubscriber(() => openConnection(redisUrl, keyPrefix, 'sub', logger), redisUrl, logger);
  let closing: Promise<void> | undefined;

  const assertOpen = (): void => {
    if (closing) throw closedError();
  };

  return {
    backend: 'redis',

    async cacheGet(key) {
      assertOpen();
      return watch.run(() => client.get(keys.cache(key)));
    },

    async cacheSet(key, value, ttlMs) {
      assertOpen();
      assertTtl(ttlMs);
      // PX takes whole milliseconds; rounding up never makes an entry expire early.
      await watch.run(() => client.set(keys.cache(key), value, 'PX', Math.ceil(ttlMs)));
    },

    async cacheDelete(key) {
      assertOpen();
      await watch.run(() => client.unlink(keys.cache(key)));
    },

    async rateLimit(key, rule) {
      assertOpen();
      const normalized = normalizeRule(rule);
      const { limit, windowMs, cost } = normalized;
      let reply: unknown;
      try {
        reply = await watch.run(() => client.sharedStateTokenBucket(keys.bucket(key), limit, windowMs, cost));
      } catch (err) {
        if (!(err instanceof RedisUnreachableError)) throw err;
        if (!decidingLocally) {
          decidingLocally = true;
          logger.warn(
            { err, redis: address },
            'shared-state: rate limits are decided by this process alone until Redis is back',
          );
        }
        return { ...localBuckets.take(keys.bucket(key), normalized), shared: false };
      }
      if (!Array.isArray(reply) || reply.length !== 3) {
        throw new Error(`shared-state: unexpected token bucket reply ${JSON.stringify(reply)}`);
      }
      const [allowed, remaining, retryAfterMs] = reply.map(Number);
      return { allowed: allowed === 1, remaining: remaining ?? 0, retryAfterMs: retryAfterMs ?? 0, shared: true };
    },

    async publish(channel, message) {
      assertOpen();
      await watch.run(() => client.publish(keys.channel(channel), message));
    },

    async subscribe(channel, handler) {
      assertOpen();
      return subscriber.subscribe(keys.channel(channel), handler);
    },

    subscriptionEpoch: () => subscriber.epoch,

    circuits: [breaker],

    async ping() {
      assertOpen();
      // Bounded by the connection's commandTimeout and maxRetriesPerRequest.
      await watch.run(() => client.ping());
    },

    close() {
      breaker.stop();
      closing ??= Promise.all([closeConnection(client), subscriber.close()]).then(() => undefined);
      return closing;
    },
  };
}
