import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OwnRedis, startOwnRedis } from '../../../tests/support/redis-server.ts';
import { missing } from '../../../tests/support/requirements.ts';
import { envelope, newEventId } from './support/envelopes.ts';
import { ADMIN, client, type Running, setUp, startErrorsApi } from './support/harness.ts';

interface ReadyBody {
  checks: Record<string, string>;
}

// A Redis of the test's own, killed in the middle of a stream of events: ingest must go on.
describe.skipIf(missing('redis-server'))('errors-api when Redis goes away during ingest', () => {
  let redis: OwnRedis;
  let server: Running;
  let dsn: URL;

  beforeAll(async () => {
    redis = await startOwnRedis();
    server = await startErrorsApi({ REDIS_URL: redis.url, REDIS_PREFIX: `outage-${process.pid}:` });
    dsn = new URL((await setUp(server.url)).dsn);
  });
  afterAll(async () => {
    await server?.close();
    // Only while it runs: kill() on a server the test already killed would wait for an exit that
    // has happened (and hang the hook past its timeout when the test failed before the restart).
    if (redis?.pid !== undefined) await redis.kill();
  });

  /** One event; a bound on every answer, so an answer that hangs on Redis fails the test. */
  async function send(eventId: string): Promise<number> {
    const res = await fetch(`${server.url}/api${dsn.pathname}/envelope/?sentry_key=${dsn.username}`, {
      method: 'POST',
      body: envelope({ event_id: eventId, message: `outage ${eventId.slice(0, 6)}`, level: 'error' }),
      signal: AbortSignal.timeout(15_000),
    });
    await res.arrayBuffer();
    return res.status;
  }

  it('answers every event 2xx, stores every one it answered, and keeps sign-in working', async () => {
    const answered = new Map<string, number>();
    let sent = 0;
    const killAt = 40;
    const total = 120;
    let killed: Promise<void> | undefined;
    // Four clients sending one after another, as SDKs on a few hosts would.
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (sent < total) {
          sent++;
          if (sent === killAt) killed = redis.kill();
          const id = newEventId();
          answered.set(id, await send(id));
        }
      }),
    );
    await killed;

    const statuses = [...answered.values()];
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const stored = await server.app.errors.db.sql.query<{ event_id: string }>('SELECT event_id FROM events');
    const storedIds = new Set(stored.map((row) => row.event_id.replaceAll('-', '')));
    const lost = [...answered.keys()].filter((id) => !storedIds.has(id));
    expect(lost).toEqual([]);

    // The outage shows, but takes no replica out of the load balancer.
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    // The circuit's state is not asserted: it opens only when at least 3 commands were on the wire
    // as Redis died (they fail after ioredis' two reconnect attempts); commands issued once the
    // connection is known to be down fail at once without counting. How many were on the wire is
    // a race (2 under load: closed). Either way nothing waits; the frozen-Redis fault test is the
    // one where the circuit matters.
    const body = (await ready.json()) as ReadyBody & { status: string };
    expect(body.status).toBe('ready');
    expect(body.checks).toEqual({ database: 'ok', redis: 'degraded' });
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    const local = Number(/errors_ingest_rate_limit_local_total\{[^}]*\} (\d+)/.exec(metrics)?.[1] ?? 0);
    expect(local).toBeGreaterThan(0);

    // Sign-in rate limits fall back the same way: no 500.
    const login = await client(server.url).call('POST', '/api/0/auth/login', {
      email: ADMIN.email,
      password: ADMIN.password,
    });
    expect(login.status).toBe(200);

    // Redis back: ready again, with limits shared through it.
    await redis.restart();
    const deadline = Date.now() + 30_000;
    const redisCheck = async () => ((await (await fetch(`${server.url}/readyz`)).json()) as ReadyBody).checks.redis;
    while ((await redisCheck()) !== 'ok') {
      if (Date.now() > deadline) throw new Error('errors-api did not see Redis come back within 30 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await send(newEventId())).toBe(200);
  });
});
