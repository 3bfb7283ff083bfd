import type { Redis } from 'ioredis';
import { closedError } from './handlers.ts';
import { keyspace } from './keys.ts';
import { closeConnection, openConnection } from './redis-connection.ts';
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
 */
export function createRedisSharedState(options: RedisSharedStateOptions): SharedState {
  const { redisUrl, keyPrefix, logger } = options;
  const keys = keyspace(keyPrefix);
  const client = openConnection(redisUrl, keyPrefix, 'cmd', logger) as CommandClient;
  // defineCommand sends EVALSHA and falls back to EVAL (which also loads the
  // script) on NOSCRIPT, e.g. after a Redis restart or failover.
  client.defineCommand('sharedStateTokenBucket', { numberOfKeys: 1, lua: TOKEN_BUCKET_LUA });
  const subscriber = new RedisSubscriber(() => openConnection(redisUrl, keyPrefix, 'sub', logger), logger);
  let closing: Promise<void> | undefined;

  const assertOpen = (): void => {
    if (closing) throw closedError();
  };

  return {
    backend: 'redis',

    async cacheGet(key) {
      assertOpen();
      return client.get(keys.cache(key));
    },

    async cacheSet(key, value, ttlMs) {
      assertOpen();
      assertTtl(ttlMs);
      // PX takes whole milliseconds; rounding up never makes an entry expire early.
      await client.set(keys.cache(key), value, 'PX', Math.ceil(ttlMs));
    },

    async cacheDelete(key) {
      assertOpen();
      await client.unlink(keys.cache(key));
    },

    async rateLimit(key, rule) {
      assertOpen();
      const { limit, windowMs, cost } = normalizeRule(rule);
      const reply = await client.sharedStateTokenBucket(keys.bucket(key), limit, windowMs, cost);
      if (!Array.isArray(reply) || reply.length !== 3) {
        throw new Error(`shared-state: unexpected token bucket reply ${JSON.stringify(reply)}`);
      }
      const [allowed, remaining, retryAfterMs] = reply.map(Number);
      return { allowed: allowed === 1, remaining: remaining ?? 0, retryAfterMs: retryAfterMs ?? 0 };
    },

    async publish(channel, message) {
      assertOpen();
      await client.publish(keys.channel(channel), message);
    },

    async subscribe(channel, handler) {
      assertOpen();
      return subscriber.subscribe(keys.channel(channel), handler);
    },

    async ping() {
      assertOpen();
      // Bounded by the connection's commandTimeout and maxRetriesPerRequest.
      await client.ping();
    },

    close() {
      closing ??= Promise.all([closeConnection(client), subscriber.close()]).then(() => undefined);
      return closing;
    },
  };
}
