import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messages, PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGliteThread } from '../src/pglite-thread/pglite-thread.ts';

describe('PGlite on its own thread', () => {
  let thread: PGliteThread;
  let inProcess: PGlite;
  beforeAll(async () => {
    [thread, inProcess] = await Promise.all([PGliteThread.open(undefined), PGlite.create()]);
    const schema = 'CREATE TABLE kv (k text PRIMARY KEY, v int NOT NULL)';
    await thread.exec(schema);
    await inProcess.exec(schema);
  });
  afterAll(async () => {
    await thread?.close();
    await inProcess?.close();
  });

  it('answers exactly as PGlite in process does, for every common type', async () => {
    const sql = `SELECT 1::int2 AS a, 2::int4 AS b, 3::int8 AS c, 1.5::float8 AS d, 12.34::numeric AS e,
      true AS f, 'x'::text AS g, '2026-11-23T10:00:00.123Z'::timestamptz AS h, '2026-11-23'::date AS i,
      '{"k":[1,2]}'::jsonb AS j, '{"k":1}'::json AS k, '\\x0102ff'::bytea AS l, ARRAY['a','b"c'] AS m,
      ARRAY[1,2]::int4[] AS n, gen_random_uuid() IS NOT NULL AS o, NULL::text AS p, $1::text AS q, $2::int AS r`;
    const params = ["it's", 7];
    const [ours, theirs] = await Promise.all([thread.query(sql, params), inProcess.query(sql, params)]);
    expect(ours.rows).toEqual(theirs.rows);
    expect(ours.fields).toEqual(theirs.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })));
  });

  it('parses arrays and the caller’s parsers exactly as PGlite in process does', async () => {
    const sql = `SELECT ARRAY[1.5, 2]::numeric[] AS a, ARRAY['2026-11-23T10:00:00Z']::timestamptz[] AS b,
      ARRAY['{"k":1}']::jsonb[] AS c, 12.5::numeric AS d`;
    // A custom parser for numeric arrays (as Prisma's adapter has) and none for the rest.
    const options = { rowMode: 'array' as const, parsers: { 1231: (text: string) => `custom ${text}` } };
    const [ours, theirs] = await Promise.all([thread.query(sql, [], options), inProcess.query(sql, [], options)]);
    expect(ours.rows).toEqual(theirs.rows);
    expect(ours.rows[0]).toEqual(['custom {1.5,2}', [new Date('2026-11-23T10:00:00Z')], [{ k: 1 }], '12.5']);
  });

  it('applies the caller’s parsers and row mode, as Prisma’s adapter asks', async () => {
    const result = await thread.query<unknown[]>(`SELECT 42::int4 AS n, now() AS t`, [], {
      rowMode: 'array',
      parsers: { 1184: (text: string) => `raw:${text}` },
    });
    const [row] = result.rows;
    expect(row?.[0]).toBe(42);
    expect(String(row?.[1])).toMatch(/^raw:\d{4}-/);
  });

  it('reports affected rows and database errors with their fields', async () => {
    const inserted = await thread.query(`INSERT INTO kv VALUES ('a', 1), ('b', 2)`);
    expect(inserted.affectedRows).toBe(2);
    const err = await thread.query(`INSERT INTO kv VALUES ('a', 3)`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(messages.DatabaseError);
    expect(err).toMatchObject({ code: '23505', constraint: 'kv_pkey', severity: 'ERROR' });
    expect((err as Error).message).toMatch(/duplicate key/);
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await thread.transaction(async (tx) => {
      await tx.query(`INSERT INTO kv VALUES ('t1', 1)`);
    });
    await expect(
      thread.transaction(async (tx) => {
        await tx.query(`INSERT INTO kv VALUES ('t2', 1)`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await thread.transaction(async (tx) => {
      await tx.query(`INSERT INTO kv VALUES ('t3', 1)`);
      await tx.rollback();
    });
    const { rows } = await thread.query<{ k: string }>(`SELECT k FROM kv WHERE k LIKE 't%' ORDER BY k`);
    expect(rows.map((r) => r.k)).toEqual(['t1']);
  });

  it('holds plain queries back while a transaction is open, as PGlite does', async () => {
    let releaseTransaction = () => {};
    const held = new Promise<void>((resolve) => {
      releaseTransaction = resolve;
    });
    let inserted = () => {};
    const insertDone = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const transaction = thread.transaction(async (tx) => {
      await tx.query(`INSERT INTO kv VALUES ('held', 1)`);
      inserted();
      await held;
    });
    await insertDone;
    let seen: number | undefined;
    const outside = thread.query<{ n: number }>(`SELECT count(*)::int AS n FROM kv WHERE k = 'held'`).then((r) => {
      seen = r.rows[0]?.n;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toBeUndefined(); // still waiting for the transaction
    releaseTransaction();
    await transaction;
    await outside;
    expect(seen).toBe(1); // ran after the commit, and saw it
  });

  it('reports a database it cannot open, and ends the thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pglite-thread-'));
    try {
      const notADirectory = join(dir, 'file');
      writeFileSync(notADirectory, 'not a database');
      await expect(PGliteThread.open(notADirectory)).rejects.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses calls once closed, and never keeps a process alive while idle', async () => {
    const other = await PGliteThread.open(undefined);
    await other.close();
    await expect(other.query('SELECT 1')).rejects.toThrow(/stopped/);

    // A script that opens a database and never closes it still ends by itself.
    const script = `import { PGliteThread } from ${JSON.stringify(new URL('../src/pglite-thread/pglite-thread.ts', import.meta.url).href)};
      const db = await PGliteThread.open(undefined);
      console.log((await db.query('SELECT 41 + 1 AS n')).rows[0].n);`;
    const dir = mkdtempSync(join(tmpdir(), 'pglite-thread-'));
    try {
      writeFileSync(join(dir, 'never-closes.mts'), script);
      const out = execFileSync(process.execPath, ['--import', 'tsx', join(dir, 'never-closes.mts')], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(out.trim()).toBe('42');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
