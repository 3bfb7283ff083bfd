import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessCatalog } from '../src/memories/memory-index.ts';
import type { MemoryStore } from '../src/memories/memory-store.ts';
import type { VectorFeed } from '../src/memories/vector-feed.ts';
import { openTestApp, type TestApp } from './helpers.ts';

/**
 * The change feed on the embedded database (one replica): writes that bypass the store still reach
 * the index through the log the triggers keep, and a position the log was trimmed past rebuilds.
 * The poll is slowed so that only the calls made here read the log.
 */
let t: TestApp;
let store: MemoryStore;
let feed: VectorFeed;

beforeAll(async () => {
  t = await openTestApp({ env: { CHANGE_FEED_POLL_MS: '60000' } });
  store = t.app.memoryStore;
  feed = store.feed as VectorFeed;
});
afterAll(() => t.close());

const remember = async (content: string) =>
  (await t.call('POST', '/remember', { content, namespace: 'feed' })).body.id as string;

describe('change feed on PGlite', () => {
  it('applies a write made behind the store, and /verify sees the difference until then', async () => {
    const id = await remember('Snapshots of the ledger are taken every six hours');
    await store.db.sql.query(`UPDATE memories SET status = 'deprecated', deprecated_at = now() WHERE id = $1::uuid`, [
      id,
    ]);
    const stale = (await t.call('POST', '/verify')).body;
    expect(stale).toMatchObject({ status_mismatches: 1, mismatch: true });
    // Recall reads the row, so the memory is gone before the index knows.
    const ids = (await t.call('POST', '/recall', { query: 'ledger snapshots', namespace: 'feed' })).body.map(
      (r: { id: string }) => r.id,
    );
    expect(ids).not.toContain(id);
    await feed.catchUp();
    expect(inProcessCatalog(store.index).entry(id)?.active).toBe(false);
    expect((await t.call('POST', '/verify')).body).toMatchObject({ status_mismatches: 0, mismatch: false });
  });

  it('a new vector written behind the store replaces the indexed one', async () => {
    const id = await remember('Alpha beta gamma delta');
    const other = await remember('Epsilon zeta eta theta');
    await store.db.sql.query(
      `UPDATE memories m SET embedding = o.embedding, content = o.content || ' (copy)', content_hash = 'x' || o.content_hash
         FROM memories o WHERE m.id = $1::uuid AND o.id = $2::uuid`,
      [id, other],
    );
    expect((await t.call('POST', '/verify')).body.vector_mismatches).toBe(1);
    await feed.catchUp();
    expect(inProcessCatalog(store.index).vector(id)).toEqual(inProcessCatalog(store.index).vector(other));
    expect((await t.call('POST', '/verify')).body.mismatch).toBe(false);
  });

  it('trims old changes without a rebuild, and rebuilds when the log was trimmed past its position', async () => {
    const id = await remember('Payroll closes on the twenty-fifth');
    expect(await feed.trim(0)).toBeGreaterThan(0);
    await feed.catchUp();
    expect(inProcessCatalog(store.index).hasVector(id)).toBe(true);

    // An index that lost a memory (a replica that missed changes), and a log trimmed past it.
    inProcessCatalog(store.index).remove(id);
    const [horizon] = await store.db.sql.query<{ top: string }>(
      `UPDATE vector_change_horizon SET trimmed_through = trimmed_through + 100 WHERE id = 1 RETURNING trimmed_through::text AS top`,
    );
    await feed.catchUp();
    expect(inProcessCatalog(store.index).hasVector(id)).toBe(true);
    expect(feed.position).toBeGreaterThanOrEqual(Number(horizon?.top));
    expect((await t.call('POST', '/verify')).body.mismatch).toBe(false);
  });

  it('exports its lag: 0 when caught up, growing while reading the log fails, 0 once a read succeeds', async () => {
    const lag = async () => {
      const text = (await t.app.inject('/metrics')).body;
      const value = /^memory_change_feed_lag_seconds(?:\{[^}]*\})? (\S+)$/m.exec(text)?.[1];
      expect(value, 'memory_change_feed_lag_seconds in /metrics').toBeDefined();
      return Number(value);
    };
    await feed.catchUp();
    expect(await lag()).toBe(0);
    // The log out of reach (as when the database is): every read fails until it is back.
    await store.db.sql.query('ALTER TABLE vector_changes RENAME TO vector_changes_away');
    try {
      await feed.catchUp();
      await new Promise((r) => setTimeout(r, 1100));
      await feed.catchUp();
      const behind = await lag();
      expect(behind).toBeGreaterThanOrEqual(1);
      await new Promise((r) => setTimeout(r, 500));
      expect(await lag()).toBeGreaterThan(behind);
    } finally {
      await store.db.sql.query('ALTER TABLE vector_changes_away RENAME TO vector_changes');
    }
    await feed.catchUp();
    expect(await lag()).toBe(0);
    expect((await t.call('POST', '/verify')).body.mismatch).toBe(false);
  });
});
