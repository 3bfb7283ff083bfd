import { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, it } from 'vitest';
import { Autovacuum, pgliteDriver, type SqlDriver } from '../src/index.ts';

const reltuples = async (sql: SqlDriver) =>
  Number((await sql.query<{ n: number }>(`SELECT reltuples::float8 AS n FROM pg_class WHERE relname = 'notes'`))[0]?.n);

const pendingGinEntries = async (sql: SqlDriver) =>
  Number(
    (await sql.query<{ n: number }>(`SELECT gin_clean_pending_list('notes_words_idx'::regclass)::int AS n`))[0]?.n,
  );

describe('autovacuum on the embedded database', () => {
  let db: PGlite;
  let autovacuum: Autovacuum | undefined;
  afterEach(async () => {
    await autovacuum?.close();
    await db?.close();
  });

  /** A table of `rows` rows, vacuumed and analysed (as after a previous run) unless `fresh`. */
  async function open({ rows = 2000, fresh = false } = {}): Promise<SqlDriver> {
    db = await PGlite.create();
    const sql = pgliteDriver(db);
    await sql.exec(`CREATE TABLE notes (id int PRIMARY KEY, n int NOT NULL DEFAULT 0, words tsvector);
      CREATE INDEX notes_words_idx ON notes USING gin (words);
      INSERT INTO notes (id) SELECT generate_series(1, ${rows});`);
    if (!fresh) {
      // Counters reach the statistics views when flushed: flush the inserts, then vacuum.
      await sql.query('SELECT pg_stat_force_next_flush()');
      await sql.exec('VACUUM (ANALYZE) notes');
    }
    return sql;
  }

  it('analyses a never-analysed table at start', async () => {
    const sql = await open({ fresh: true });
    expect(await reltuples(sql)).toBe(-1); // never analysed: the planner guesses
    autovacuum = new Autovacuum(sql, { intervalMs: 60_000 });
    expect(await autovacuum.start()).toEqual(['notes']);
    expect(await reltuples(sql)).toBe(2000);
    expect(await autovacuum.start()).toEqual([]); // current: left alone
  });

  it('analyses a table again once enough rows changed', async () => {
    const sql = await open();
    autovacuum = new Autovacuum(sql, { intervalMs: 60_000 });
    await autovacuum.start();

    // Below the threshold (50 + 10% of 2000 = 250 rows) nothing happens...
    await sql.exec('INSERT INTO notes (id) SELECT generate_series(2001, 2200)');
    expect(await autovacuum.check()).toEqual([]);
    expect(await reltuples(sql)).toBe(2000);
    // ...past it, the table is analysed.
    await sql.exec('INSERT INTO notes (id) SELECT generate_series(2201, 3000)');
    expect(await autovacuum.check()).toEqual([{ table: 'notes', action: 'analyze' }]);
    expect(await reltuples(sql)).toBe(3000);
    // From a small sample (it holds up every statement while it runs): at most 10 + 1 bounds.
    const [stats] = await sql.query<{ n: number }>(
      `SELECT array_length(histogram_bounds, 1) AS n FROM pg_stats WHERE tablename = 'notes' AND attname = 'id'`,
    );
    expect(stats?.n).toBeLessThanOrEqual(11);
  });

  it('vacuums a table whose rows were updated past the threshold, removing the dead versions', async () => {
    const sql = await open();
    autovacuum = new Autovacuum(sql, { intervalMs: 60_000 });
    await autovacuum.start();
    const size = async () =>
      Number((await sql.query<{ n: number }>(`SELECT pg_relation_size('notes')::float8 AS n`))[0]?.n);
    await sql.exec('UPDATE notes SET n = n + 1 WHERE id <= 300'); // 300 dead: under 50 + 20% of 2000
    expect(await autovacuum.check()).not.toContainEqual({ table: 'notes', action: 'vacuum' });
    await sql.exec('UPDATE notes SET n = n + 1 WHERE id <= 300');
    expect(await autovacuum.check()).toContainEqual({ table: 'notes', action: 'vacuum' });
    const afterVacuum = await size();
    // Updates now reuse the space the vacuum freed instead of growing the table.
    await sql.exec('UPDATE notes SET n = n + 1 WHERE id <= 300');
    expect(await size()).toBe(afterVacuum);
  });

  it('merges GIN pending lists after 1000 rows inserted or moved, so searches do not scan them', async () => {
    // 10,000 rows: a vacuum (which merges them too) is due only after 1000 + 20% = 3000 inserts.
    const sql = await open({ rows: 10_000 });
    autovacuum = new Autovacuum(sql, { intervalMs: 60_000 });
    await autovacuum.start();
    const insert = (from: number, to: number) =>
      sql.exec(`INSERT INTO notes (id, words)
        SELECT g, to_tsvector('simple', 'word' || g || ' common') FROM generate_series(${from}, ${to}) g`);
    await insert(10_001, 10_500);
    expect(await autovacuum.check()).toEqual([]);
    expect(await pendingGinEntries(sql)).toBeGreaterThan(0); // 500 inserts: left pending
    await insert(10_501, 11_600);
    expect(await autovacuum.check()).toEqual([
      { table: 'notes', action: 'analyze' },
      { table: 'notes', action: 'merge-gin' },
    ]);
    expect(await pendingGinEntries(sql)).toBe(0);
    // An update that cannot stay in place adds index entries too.
    await sql.exec(`UPDATE notes SET words = to_tsvector('simple', 'moved ' || id) WHERE id <= 1100`);
    expect(await autovacuum.check()).toContainEqual({ table: 'notes', action: 'merge-gin' });
    expect(await pendingGinEntries(sql)).toBe(0);
  });

  it('checks by itself every interval, off any request', async () => {
    const sql = await open();
    autovacuum = new Autovacuum(sql, { intervalMs: 20 });
    await autovacuum.start();
    await sql.exec('INSERT INTO notes (id) SELECT generate_series(2001, 4000)');
    await expect.poll(() => reltuples(sql), { timeout: 5000 }).toBe(4000);
  });
});
