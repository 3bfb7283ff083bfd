import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { type Mock, vi } from 'vitest';
import type { SharedStateLogger } from '../src/index.ts';

export { sleep };

export const redisUrl = process.env.REDIS_URL || undefined;

/** Unique per test run, so parallel runs (CI shards, developers) sharing one Redis never collide. */
export function runPrefix(): string {
  return `trove-test:${randomUUID()}:`;
}

export function spyLogger(): SharedStateLogger & { warn: Mock<SharedStateLogger['warn']> } {
  return { warn: vi.fn<SharedStateLogger['warn']>() };
}

/** Polls instead of sleeping a fixed time: fast when things are fast, patient on a loaded CI box. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

/** A plain client for looking behind the seam (TTL, PUBSUB NUMSUB, ...) and for cleanup. */
export function rawRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 2, connectionName: 'shared-state-test-inspector' });
}

/** Removes every key the run created; SCAN, not KEYS, so a shared Redis is not blocked. */
export async function deleteKeysWithPrefix(url: string, prefix: string): Promise<number> {
  const redis = rawRedis(url);
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
  return deleted;
}
