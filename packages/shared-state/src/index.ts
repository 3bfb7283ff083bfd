import { createMemorySharedState } from './memory.ts';
import type { MemoryStore } from './memory-store.ts';
import { createRedisSharedState } from './redis.ts';
import type { SharedState, SharedStateLogger } from './types.ts';
import { assertKeyPrefix } from './validation.ts';

export { MemoryStore, type MemoryStoreOptions } from './memory-store.ts';
export type {
  MessageHandler,
  RateLimitResult,
  RateLimitRule,
  SharedState,
  SharedStateBackend,
  SharedStateLogger,
  Unsubscribe,
} from './types.ts';

export interface SharedStateOptions {
  /** The REDIS_URL of the app config. Unset or empty: in-memory backend (one process only). */
  redisUrl?: string | undefined;
  /** Prepended to every key and channel, e.g. "trove:errors:". Required, non-empty. */
  keyPrefix: string;
  /** Connection problems and throwing pub/sub handlers are reported here. Default: console.warn. */
  logger?: SharedStateLogger | undefined;
  /**
   * Memory backend only (ignored when redisUrl is set): handles given the same
   * store see each other's cache, limits and messages, like replicas sharing
   * one Redis. Without it every handle gets a private store.
   */
  memoryStore?: MemoryStore | undefined;
}

const consoleLogger: SharedStateLogger = {
  warn: (obj, msg) => console.warn(msg, obj),
};

export function createSharedState(options: SharedStateOptions): SharedState {
  assertKeyPrefix(options.keyPrefix);
  const logger = options.logger ?? consoleLogger;
  if (options.redisUrl) {
    return createRedisSharedState({ redisUrl: options.redisUrl, keyPrefix: options.keyPrefix, logger });
  }
  return createMemorySharedState({ keyPrefix: options.keyPrefix, logger, store: options.memoryStore });
}
export { RedisUnreachableError, redisAddress } from './redis-address.ts';
export { serviceKeyPrefix, sharedStateEnv } from './shared-state-env.ts';

/** Readiness checks for the state backend: Redis must answer; the in-process backend needs none. */
export function sharedStateChecks(state: SharedState): Record<string, () => Promise<void>> {
  return state.backend === 'redis' ? { redis: () => state.ping() } : {};
}
