import { type BucketState, takeTokens } from './token-bucket.ts';
import type { BucketResult } from './types.ts';
import type { NormalizedRule } from './validation.ts';

export interface MemoryStoreOptions {
  /** How often (at most) writes trigger a sweep of expired entries. Default 30 s. */
  sweepIntervalMs?: number;
  /** Monotonic clock in ms. Injected by tests; defaults to performance.now(). */
  now?: () => number;
}

interface CacheEntry {
  value: string;
  expiresAt: number;
}

interface BucketEntry extends BucketState {
  expiresAt: number;
}

type Listener = (message: string) => void;

/**
 * The in-process stand-in for a Redis server. It knows nothing about key
 * prefixes or validation: handles (memory.ts) do that, exactly like several
 * replicas sharing one Redis. Each handle gets its own store by default; pass
 * one store to several handles to make them behave like replicas.
 *
 * Expired entries are removed lazily (reads ignore them) and by a sweep that
 * piggybacks on writes at most once per `sweepIntervalMs`. No timer is used,
 * so a store never keeps the process alive and needs no closing, which is
 * what makes it safe to share between handles that close independently.
 */
export class MemoryStore {
  readonly #cache = new Map<string, CacheEntry>();
  readonly #buckets = new Map<string, BucketEntry>();
  readonly #channels = new Map<string, Set<Listener>>();
  readonly #sweepIntervalMs: number;
  readonly #now: () => number;
  #lastSweep: number;

  constructor(options: MemoryStoreOptions = {}) {
    this.#sweepIntervalMs = options.sweepIntervalMs ?? 30_000;
    this.#now = options.now ?? (() => performance.now());
    this.#lastSweep = this.#now();
  }

  /** Live entry counts, e.g. for metrics or to check that idle data is evicted. */
  get size(): { cache: number; buckets: number; channels: number } {
    return { cache: this.#cache.size, buckets: this.#buckets.size, channels: this.#channels.size };
  }

  cacheGet(key: string): string | null {
    const entry = this.#cache.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= this.#now()) {
      this.#cache.delete(key);
      return null;
    }
    return entry.value;
  }

  cacheSet(key: string, value: string, ttlMs: number): void {
    const now = this.#now();
    this.#cache.set(key, { value, expiresAt: now + ttlMs });
    this.#maybeSweep(now);
  }

  cacheDelete(key: string): void {
    this.#cache.delete(key);
  }

  /** Synchronous read-modify-write: atomic because nothing else runs in between. */
  take(key: string, rule: NormalizedRule): BucketResult {
    const now = this.#now();
    const { result, state, idleTtlMs } = takeTokens(this.#buckets.get(key), now, rule);
    this.#buckets.set(key, { ...state, expiresAt: now + idleTtlMs });
    this.#maybeSweep(now);
    return result;
  }

  /**
   * Delivery is deferred to a microtask, like Redis delivers after PUBLISH
   * returns: handlers never run inside the publisher's call stack, and
   * messages keep their publish order. Listeners are captured now, so only
   * subscribers present at publish time receive the message.
   */
  publish(channel: string, message: string): void {
    const listeners = this.#channels.get(channel);
    if (!listeners) return;
    for (const listener of [...listeners]) {
      queueMicrotask(() => listener(message));
    }
  }

  /** Returns a function that removes exactly this listener. */
  subscribe(channel: string, listener: Listener): () => void {
    let listeners = this.#channels.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.#channels.set(channel, listeners);
    }
    listeners.add(listener);
    return () => {
      const current = this.#channels.get(channel);
      if (!current) return;
      current.delete(listener);
      if (current.size === 0) this.#channels.delete(channel);
    };
  }

  #maybeSweep(now: number): void {
    if (now - this.#lastSweep < this.#sweepIntervalMs) return;
    this.#lastSweep = now;
    for (const [key, entry] of this.#cache) {
      if (entry.expiresAt <= now) this.#cache.delete(key);
    }
    for (const [key, entry] of this.#buckets) {
      if (entry.expiresAt <= now) this.#buckets.delete(key);
    }
  }
}
