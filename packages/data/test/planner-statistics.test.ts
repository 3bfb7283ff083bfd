import { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, it } from 'vitest';
import { PlannerStatistics, pgliteDriver, type SqlDriver } from '../src/index.ts';

const reltuples = async (sql: SqlDriver) =>
  Number((await sql.query<{ n: number }>(`SELECT reltuples::float8 AS n FROM pg_class WHERE relname = 'notes'`))[0]?.n);

describe('planner statistics on the embedded database', () => {
  let db: PGlite;
  afterEach(() => db?.close());

  it('analyses a never-analysed table at start, and again once enough rows were written', async () => {
    db = await PGlite.create();
    const sql = pgliteDriver(db);
    await sql.exec(`CREATE TABLE notes (id int PRIMARY KEY);
      INSERT INTO notes SELECT generate_series(1, 2000);`);
    expect(await reltuples(sql)).toBe(-1); // never analysed: the planner guesses

    const statistics = new PlannerStatistics(sql, { delayMs: 10 });
    expect(await statistics.refreshIfStale(['notes'])).toEqual(['notes']);
    expect(await reltuples(sql)).toBe(2000);
    expect(await statistics.refreshIfStale(['notes'])).toEqual([]); // current: left alone

    // Below the threshold (50 + 10% of 2000 = 250 rows) nothing happens...
    await sql.exec('INSERT INTO notes SELECT generate_series(2001, 2200)');
    statistics.wrote('notes', 200);
    await new Promise((r) => setTimeout(r, 100));
    expect(await reltuples(sql)).toBe(2000);
    // ...past it, the table is analysed shortly after, without anyone waiting for it.
    await sql.exec('INSERT INTO notes SELECT generate_series(2201, 3000)');
    statistics.wrote('notes', 800);
    await expect.poll(() => reltuples(sql), { timeout: 5000 }).toBe(3000);
    await statistics.close();
  });

  it('refuses table names that are not plain identifiers', async () => {
    db = await PGlite.create();
    const statistics = new PlannerStatistics(pgliteDriver(db));
    await expect(statistics.refreshIfStale(['notes; DROP TABLE x'])).rejects.toThrow(/bad table name/);
  });
});
