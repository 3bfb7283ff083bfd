import type { CircuitBreaker } from '@trove/service-kit';

/**
 * The "Redis seam": the only shared-state surface our HTTP services use.
 * Kept deliberately small so the in-memory and Redis backends can honour
 * exactly the same contract (see test/contract.ts).
 */

export type SharedStateBackend = 'memory' | 'redis';

/** Structurally compatible with pino, so services can pass their logger as is. */
export interface SharedStateLogger {
  warn(obj: object, msg: string): void;
  /** Recoveries are logged here when present (else as warnings). */
  info?(obj: object, msg: string): void;
}

export interface RateLimitRule {
  /** Bucket capacity: how many units may be spent in a burst. Integer >= 1. */
  limit: number;
  /** Time for an empty bucket to refill completely (tokens come back evenly). > 0. */
  windowMs: number;
  /** Units this call spends. Integer, 1 <= cost <= limit. Default 1. */
  cost?: number;
}

export interface BucketResult {
  allowed: boolean;
  /** Whole tokens left after this call. */
  remaining: number;
  /** 0 when allowed; otherwise how long until this same call would be allowed (1..windowMs). */
  retryAfterMs: number;
}

export interface RateLimitResult extends BucketResult {
  /**
   * False when Redis could not be reached and this process decided alone, with a bucket of its own
   * (the limit then holds per replica instead of across them). Always true on the memory backend.
   */
  shared: boolean;
}

export type MessageHandler = (message: string) => void;
export type Unsubscribe = () => Promise<void>;

export interface SharedState {
  readonly backend: SharedStateBackend;

  cacheGet(key: string): Promise<string | null>;
  /** ttlMs must be > 0: nothing is cached forever, so a stale value always ages out. */
  cacheSet(key: string, value: string, ttlMs: number): Promise<void>;
  cacheDelete(key: string): Promise<void>;

  /** Token bucket: capacity `limit`, refilled evenly over `windowMs`. Atomic across replicas. */
  rateLimit(key: string, rule: RateLimitRule): Promise<RateLimitResult>;

  /** Fire and forget: delivered to subscribers that exist at publish time, on every handle of the backend. */
  publish(channel: string, message: string): Promise<void>;
  /**
   * Resolves once the subscription is live (messages published afterwards are delivered).
   * The returned function removes only this handler; it is idempotent.
   */
  subscribe(channel: string, handler: MessageHandler): Promise<Unsubscribe>;

  /**
   * Changes whenever delivery of published messages to this handle may have had a gap (Redis
   * reconnected), and is undefined while messages cannot reach it. A cache that is invalidated over
   * pub/sub notes this before it reads and trusts an entry only while the value is still the same.
   */
  subscriptionEpoch(): number | undefined;

  /**
   * The circuit breakers around the backend (none in memory): while one is open, calls fail at once
   * instead of waiting on a server that does not answer. For /readyz and metrics.
   */
  readonly circuits: readonly CircuitBreaker[];

  /** For readiness checks: rejects (within a couple of seconds) when the backend is unreachable. */
  ping(): Promise<void>;
  /** Idempotent. Releases connections so the process can exit; later calls to other methods reject. */
  close(): Promise<void>;
}
