import { describe, expect, it } from 'vitest';
import { embeddedFailure } from '../src/embedded-failure.ts';
import { openDatabase } from '../src/index.ts';
import { migrationsFixture } from './engines.ts';

/** An embedded database whose watchdog counts half a second without an answer as a stall. */
const openStalling = async () =>
  openDatabase({
    dataDir: 'memory://',
    stallMs: 500,
    migrate: 'apply',
    migrationsDir: await migrationsFixture({}),
    createClient: () => ({ $disconnect: async () => {} }),
  });

/** PGlite runs pg_sleep by spinning its thread: a database that stops answering, on demand. */
describe('the embedded database thread when it stops answering', () => {
  it('fails waiting and later calls with a 503 naming the data directory, fails liveness, and closes at once', async () => {
    const db = await openStalling();
    db.alive();
    const stuck = db.sql.query('SELECT pg_sleep(5)').catch((err) => err);
    const queued = db.sql.query('SELECT 1').catch((err) => err);
    const err = await stuck;
    expect(err.message).toMatch(/the embedded database in memory has not answered for \d+ s/);
    expect(await queued).toBe(err);
    const started = performance.now();
    const later = await db.sql.query('SELECT 1').catch((e) => e);
    // At once, not after another stall period (500 ms): the bound is loose for a loaded CI machine.
    expect(performance.now() - started).toBeLessThan(250);
    expect(db.unavailable(later)).toMatchObject({
      statusCode: 503,
      dependency: 'database',
      publicMessage: 'the embedded database (data directory memory://) is not answering; retry later',
    });
    expect(() => db.alive()).toThrow(/has not answered/);
    await expect(db.ping()).rejects.toThrow(/has not answered/);
    const closing = performance.now();
    await db.close();
    expect(performance.now() - closing).toBeLessThan(2_000);
  });

  it('does not count the time its own thread was busy as the database not answering', async () => {
    const db = await openStalling();
    try {
      const answer = db.sql.query<{ one: number }>('SELECT 1 AS one FROM pg_sleep(0.2)');
      await new Promise((r) => setTimeout(r, 50));
      // The answer comes in 0.2 s, but this thread reads it only after a long synchronous task
      // (in the event loop's check phase): the next turn runs the watchdog's timer, due meanwhile,
      // before it reads the answer, and finds the call owed for three times the bound.
      await new Promise<void>((resolve) =>
        setImmediate(() => {
          const until = performance.now() + 1_500;
          while (performance.now() < until) {}
          resolve();
        }),
      );
      expect(await answer).toEqual([{ one: 1 }]);
      await new Promise((r) => setTimeout(r, 1_200));
      expect(await db.sql.query('SELECT 2 AS two')).toEqual([{ two: 2 }]);
      expect(() => db.alive()).not.toThrow();
    } finally {
      await db.close();
    }
  });

  it('answers a full disk with 507 naming the data directory', () => {
    const full = Object.assign(new Error('could not extend file "base/5/16467_fsm": No space left on device'), {
      code: '53100',
    });
    expect(embeddedFailure('/var/lib/trove', full)).toMatchObject({
      statusCode: 507,
      retryAfterSeconds: 30,
      publicMessage:
        'insufficient storage: the disk holding the data directory /var/lib/trove is full; free space there and retry',
    });
    expect(embeddedFailure('/var/lib/trove', new Error('syntax error at or near "SELEC"'))).toBeUndefined();
  });
});
