/**
 * Postgres taken away from a running memory-api (a proxy between them cut) and given back: the
 * LISTEN connection of the change feed comes back as ONE session, however long the outage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../support/processes.ts';
import { missing } from '../support/requirements.ts';
import { databaseBehind, sessionsByApplication, until } from './support/postgres.ts';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts';

const LISTEN = 'trove-listen:trove_vector_changes';

describe.skipIf(missing('postgres'))('memory-api through a Postgres outage', () => {
  let proxy: TcpProxy;
  let db: Awaited<ReturnType<typeof databaseBehind>>;
  let app: RunningApp;

  beforeAll(async () => {
    proxy = await startTcpProxy(Number(new URL(process.env.TEST_DATABASE_URL as string).port || 5432));
    db = await databaseBehind(proxy, 'fault_pg');
    app = await startApp('memory-api', {
      DATABASE_URL: db.viaProxy,
      MIGRATE_ON_START: 'apply',
      EMBEDDER: 'hash',
      DATABASE_POOL_MAX: '4',
    });
  });
  afterAll(async () => {
    await app?.stop();
    await proxy?.close();
    await db?.drop();
  });

  it('keeps one LISTEN session after a cut and restore, and serves again', async () => {
    const listening = (s: Record<string, number>) => s[LISTEN] ?? 0;
    await until(
      () => sessionsByApplication(db.url),
      (s) => listening(s) === 1,
      10_000,
    );

    proxy.cut();
    await until(
      () => sessionsByApplication(db.url),
      (s) => listening(s) === 0,
      5_000,
    );
    // Long enough for several failed reconnects (the old loop doubled its retry chains on each).
    await new Promise((r) => setTimeout(r, 5_000));
    proxy.restore();
    const restoredAt = Date.now();

    await until(
      () => sessionsByApplication(db.url),
      (s) => listening(s) === 1,
      10_000,
    );
    const recoveredMs = Date.now() - restoredAt;
    // Held: no second chain comes back late with a connection of its own.
    await new Promise((r) => setTimeout(r, 3_000));
    const after = await sessionsByApplication(db.url);
    expect(listening(after)).toBe(1);
    expect((after[''] ?? 0) + listening(after)).toBeLessThanOrEqual(4 + 1);
    console.log(`LISTEN sessions back to 1 in ${recoveredMs} ms after a 5 s outage`);

    const res = await fetch(`${app.url}/remember`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'written after the outage' }),
    });
    expect(res.status).toBeLessThan(300);
  });
});
