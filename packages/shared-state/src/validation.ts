import type { RateLimitRule } from './types.ts';

/** A rule with its defaults applied; what both backends actually run. */
export interface NormalizedRule {
  limit: number;
  windowMs: number;
  cost: number;
}

// Inputs are checked the same way for both backends so a bad rule fails in
// development (memory) exactly as it would in production (Redis), instead of
// turning into a Lua error or a silently wrong limit.

export function normalizeRule(rule: RateLimitRule): NormalizedRule {
  if (typeof rule !== 'object' || rule === null) {
    throw new TypeError('rateLimit: rule must be an object { limit, windowMs, cost? }');
  }
  const { limit, windowMs } = rule;
  const cost = rule.cost ?? 1;
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new TypeError(`rateLimit: rule.limit must be an integer >= 1 (got ${String(limit)})`);
  }
  if (typeof windowMs !== 'number' || !Number.isFinite(windowMs) || windowMs <= 0) {
    throw new TypeError(`rateLimit: rule.windowMs must be a finite number > 0 (got ${String(windowMs)})`);
  }
  if (!Number.isSafeInteger(cost) || cost < 1 || cost > limit) {
    throw new TypeError(`rateLimit: rule.cost must be an integer between 1 and limit (${limit}) (got ${String(cost)})`);
  }
  return { limit, windowMs, cost };
}

export function assertTtl(ttlMs: number): void {
  if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new TypeError(`cacheSet: ttlMs must be a finite number > 0 (got ${String(ttlMs)})`);
  }
}

export function assertKeyPrefix(keyPrefix: string): void {
  // An empty prefix would let services sharing one Redis overwrite each other.
  if (typeof keyPrefix !== 'string' || keyPrefix.length === 0) {
    throw new TypeError('createSharedState: keyPrefix must be a non-empty string, e.g. "trove:errors:"');
  }
}
