/**
 * A Redis that stops answering without closing its connections (SIGSTOP: frozen, overloaded, a
 * half-open network): errors-api's circuit breaker opens and ingest goes on without it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from '@trove/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../support/processes.ts';
import { type OwnRedis, startOwnRedis } from '../support/redis-server.ts';
import { missing } from '../support/requirements.ts';
import { type IngestTarget, ingestTarget } from './support/errors-api.ts';

interface Ready {
  status: string;
  checks: Record<string, string>;
  details?: Record<string, { circuit?: string }>;
}

const readyz = async (app: RunningApp) => (await (await fetch(`${app.url}/readyz`)).json()) as Ready;

describe.skipIf(missing('redis-server'))('errors-api with a frozen Redis', () => {
  let redis: OwnRedis;
  let app: RunningApp;
  let target: IngestTarget;
  let dataDir: string;

  beforeAll(async () => {
    redis = await startOwnRedis();
    dataDir = await mkdtemp(join(tmpdir(), 'trove-fault-redis-'));
    app = await startApp('errors-api', { DATA_DIR: dataDir, REDIS_URL: redis.url, LOG_LEVEL: 'info' });
    target = await ingestTarget(app.url);
  });
  afterAll(async () => {
    if (redis?.pid) process.kill(redis.pid, 'SIGCONT');
    await app?.stop();
    await redis?.kill();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Sends `count` events one after another, as one SDK would. */
  const burst = async (label: string, count: number) => {
    const results = [];
    for (let i = 0; i < count; i++) results.push(await target.send(`${label} event`));
    return results;
  };

  it('keeps ingest p50 within 2x of normal, loses nothing, and closes the circuit when Redis answers', async () => {
    await burst('warm-up', 20);
    const normal = await burst('normal', 60);

    process.kill(redis.pid as number, 'SIGSTOP');
    const frozenAt = Date.now();
    const frozen = await burst('frozen', 60);
    // The first few wait out the command timeout until the circuit opens; the rest skip Redis.
    const ready = await readyz(app);
    expect(ready.status).toBe('ready');
    expect(ready.checks.redis).toBe('degraded');
    expect(ready.details?.redis?.circuit).toBe('open');
    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    expect(metrics).toMatch(/circuit_breaker_open\{[^}]*dependency="redis"[^}]*\} 1/);
    const frozenForMs = Date.now() - frozenAt;

    process.kill(redis.pid as number, 'SIGCONT');
    const resumedAt = Date.now();
    while ((await readyz(app)).details?.redis?.circuit !== 'closed') {
      if (Date.now() - resumedAt > 10_000) throw new Error('the circuit did not close within 10 s of Redis answering');
      await new Promise((r) => setTimeout(r, 100));
    }
    const closedInMs = Date.now() - resumedAt;
    const after = await burst('after', 20);

    for (const result of [...normal, ...frozen, ...after]) expect(result.status, result.body).toBe(200);
    expect(await target.stored('normal')).toBe(normal.length);
    expect(await target.stored('frozen')).toBe(frozen.length);
    expect(await target.stored('after')).toBe(after.length);

    const p50 = { normal: median(normal.map((r) => r.ms)), frozen: median(frozen.map((r) => r.ms)) };
    console.log(
      `ingest p50 ${p50.normal.toFixed(1)} ms normal, ${p50.frozen.toFixed(1)} ms with Redis frozen for ${frozenForMs} ms; circuit closed ${closedInMs} ms after SIGCONT`,
    );
    // 2x, with 5 ms of room for a busy machine's scheduling at single-digit medians.
    expect(p50.frozen).toBeLessThanOrEqual(2 * p50.normal + 5);

    // One line when the circuit opened and one when it closed, not one per event.
    const log = app.output();
    expect(log.match(/stopped answering/g)?.length).toBe(1);
    expect(log.match(/answers again after/g)?.length).toBe(1);
    expect(log).not.toContain('could not publish a live update');
  });
});
