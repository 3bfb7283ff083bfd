import type { BucketResult } from './types.ts';
import type { NormalizedRule } from './validation.ts';

/**
 * The token bucket, written twice: once in TypeScript for the memory backend
 * and once in Lua for Redis. They live side by side so a change to one is
 * made to the other; the shared contract tests check that they agree.
 *
 * - A bucket holds up to `limit` tokens and gains `limit / windowMs` per ms.
 * - A key that was never seen (or whose state expired) is a full bucket.
 * - A refused call spends nothing.
 * - State expires when the bucket would be full again: from then on a missing
 *   key and a stored one mean the same thing, so idle keys can simply vanish.
 */

export interface BucketState {
  tokens: number;
  /** Clock reading (ms) at which `tokens` was computed. */
  updatedAt: number;
}

export interface TakeOutcome {
  result: BucketResult;
  state: BucketState;
  /** How long until the bucket is full again, i.e. when the state may be dropped. */
  idleTtlMs: number;
}

export function takeTokens(previous: BucketState | undefined, now: number, rule: NormalizedRule): TakeOutcome {
  const { limit, windowMs, cost } = rule;
  let tokens = limit;
  if (previous) {
    // max(0, …) guards against a clock that went backwards.
    const elapsed = Math.max(0, now - previous.updatedAt);
    tokens = Math.min(limit, previous.tokens + (elapsed * limit) / windowMs);
  }
  let allowed = false;
  let retryAfterMs = 0;
  if (tokens >= cost) {
    tokens -= cost;
    allowed = true;
  } else {
    // cost <= limit and tokens >= 0, so this is at most windowMs (min() absorbs float noise).
    retryAfterMs = Math.min(windowMs, Math.ceil(((cost - tokens) * windowMs) / limit));
  }
  const idleTtlMs = Math.max(1, Math.ceil(((limit - tokens) * windowMs) / limit));
  return {
    result: { allowed, remaining: Math.floor(tokens), retryAfterMs },
    state: { tokens, updatedAt: now },
    idleTtlMs,
  };
}

/**
 * KEYS[1] = bucket hash; ARGV = limit, windowMs, cost (validated by the caller).
 * Returns { allowed (0|1), remaining, retryAfterMs } as integers.
 *
 * The clock is Redis TIME, not the caller's: replicas with skewed clocks
 * must not be able to mint tokens. Redis >= 5 replicates script effects, so
 * calling TIME before writing is allowed; the guarded replicate_commands()
 * only matters on older servers.
 */
export const TOKEN_BUCKET_LUA = `
if redis.replicate_commands then pcall(redis.replicate_commands) end
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000

local tokens = limit
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
if saved[1] and saved[2] then
  local elapsed = math.max(0, now - tonumber(saved[2]))
  tokens = math.min(limit, tonumber(saved[1]) + elapsed * limit / window)
end

local allowed = 0
local retry = 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
else
  retry = math.min(window, math.ceil((cost - tokens) * window / limit))
end

local idle = math.max(1, math.ceil((limit - tokens) * window / limit))
redis.call('HSET', KEYS[1], 'tokens', tokens, 'ts', now)
redis.call('PEXPIRE', KEYS[1], idle)
return { allowed, math.floor(tokens), retry }
`;
