/**
 * Names of everything a handle stores, all under its keyPrefix.
 *
 * Cache entries and rate-limit buckets get their own sub-namespace so that
 * `cacheSet('x')` and `rateLimit('x')` can never land on the same Redis key
 * (a string vs a hash would fail with WRONGTYPE). Pub/sub channels live in a
 * separate namespace in Redis already, so they only get the prefix.
 */
export interface Keyspace {
  cache(key: string): string;
  bucket(key: string): string;
  channel(name: string): string;
}

export function keyspace(prefix: string, channelPrefix = prefix): Keyspace {
  return {
    cache: (key) => `${prefix}cache:${key}`,
    bucket: (key) => `${prefix}ratelimit:${key}`,
    channel: (name) => `${channelPrefix}${name}`,
  };
}
