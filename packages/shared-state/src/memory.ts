import { closedError, invokeHandler } from './handlers.ts';
import { keyspace } from './keys.ts';
import { MemoryStore } from './memory-store.ts';
import type { MessageHandler, SharedState, SharedStateLogger, Unsubscribe } from './types.ts';
import { assertTtl, normalizeRule } from './validation.ts';

export interface MemorySharedStateOptions {
  keyPrefix: string;
  logger: SharedStateLogger;
  /** Share one store between handles to make them act like replicas of one service. */
  store?: MemoryStore | undefined;
}

/**
 * One process, no network. Methods are async only to match the Redis
 * backend; callers must not rely on them completing synchronously.
 */
export function createMemorySharedState(options: MemorySharedStateOptions): SharedState {
  const { logger } = options;
  const store = options.store ?? new MemoryStore();
  const keys = keyspace(options.keyPrefix);
  // This handle's live subscriptions, so close() can drop them from a shared store.
  const subscriptions = new Set<() => void>();
  let closed = false;

  const assertOpen = (): void => {
    if (closed) throw closedError();
  };

  return {
    backend: 'memory',

    async cacheGet(key) {
      assertOpen();
      return store.cacheGet(keys.cache(key));
    },

    async cacheSet(key, value, ttlMs) {
      assertOpen();
      assertTtl(ttlMs);
      store.cacheSet(keys.cache(key), value, ttlMs);
    },

    async cacheDelete(key) {
      assertOpen();
      store.cacheDelete(keys.cache(key));
    },

    async rateLimit(key, rule) {
      assertOpen();
      return { ...store.take(keys.bucket(key), normalizeRule(rule)), shared: true };
    },

    async publish(channel, message) {
      assertOpen();
      store.publish(keys.channel(channel), message);
    },

    async subscribe(channel: string, handler: MessageHandler): Promise<Unsubscribe> {
      assertOpen();
      const fullChannel = keys.channel(channel);
      let active = true;
      // The guard drops messages that were already queued when unsubscribe ran.
      const removeListener = store.subscribe(fullChannel, (message) => {
        if (active) invokeHandler(handler, message, fullChannel, logger);
      });
      const remove = (): void => {
        active = false;
        removeListener();
        subscriptions.delete(remove);
      };
      subscriptions.add(remove);
      return async () => remove();
    },

    subscriptionEpoch: () => 0,

    circuits: [],

    async ping() {
      assertOpen();
    },

    async close() {
      if (closed) return;
      closed = true;
      for (const remove of [...subscriptions]) remove();
    },
  };
}
