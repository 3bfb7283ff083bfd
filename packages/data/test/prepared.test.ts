import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlLiteral } from '../src/index.ts';
import { engines, type OpenedEngine } from './engines.ts';

// Values that break naive quoting: quotes, backslashes (ordinary under standard_conforming_strings),
// an attempt to end the statement, non-ASCII text, JSON, bytes and NULL.
const tricky = ["it's", 'back\\slash \\x00 \\', "'); DROP TABLE notes; --", 'ünïcødé — 雪 🙂', '{"a": [1, "two"]}', ''];

describe.each(engines)('prepared statements on $name', (engine) => {
  let opened: OpenedEngine;
  beforeAll(async () => {
    opened = await engine.open();
    await opened.driver.exec(
      'CREATE TABLE notes (id int PRIMARY KEY, body text, doc jsonb, raw bytea, at timestamptz)',
    );
  });
  afterAll(() => opened.close());

  it('stores and returns every value exactly as parameters would, planning once', async () => {
    const { driver } = opened;
    const [conforming] = await driver.query<{ standard_conforming_strings: string }>(
      'SHOW standard_conforming_strings',
    );
    expect(conforming?.standard_conforming_strings).toBe('on');
    const insert = driver.prepare(
      'note_insert',
      'INSERT INTO notes (id, body, doc, raw, at) VALUES ($1::int, $2::text, $3::jsonb, $4::bytea, $5::timestamptz) RETURNING id, body, doc, at',
    );
    const at = new Date('2026-11-23T12:34:56.789Z');
    for (const [i, body] of tricky.entries()) {
      const [row] = await insert<{ id: number; body: string; doc: unknown; at: Date }>([
        i,
        body,
        JSON.stringify({ body }),
        Buffer.from([0, 39, 92, 255]),
        at,
      ]);
      expect(row).toEqual({ id: i, body, doc: { body }, at });
    }
    const [nulls] = await insert([99, null, null, null, null]);
    expect(nulls).toEqual({ id: 99, body: null, doc: null, at: null });

    const read = driver.prepare('note_read', 'SELECT body, raw FROM notes WHERE id = $1::int');
    for (const [i, body] of tricky.entries()) {
      const [row] = await read<{ body: string; raw: Uint8Array }>([i]);
      expect(row?.body).toBe(body);
      expect([...(row?.raw ?? [])]).toEqual([0, 39, 92, 255]);
    }
    const [{ n } = { n: 0 }] = await driver.query<{ n: number }>('SELECT count(*)::int AS n FROM notes');
    expect(n).toBe(tricky.length + 1);
  });

  it('passes arrays as array parameters, elements exact, and keeps the generic plan on an index', async () => {
    const { driver } = opened;
    const unnest = driver.prepare('note_unnest', 'SELECT unnest($1::text[]) AS v');
    const elements = [...tricky, 'a,b', '{braces}', 'double " quote', 'NULL'];
    const rows = await unnest<{ v: string }>([elements]);
    expect(rows.map((r) => r.v)).toEqual(elements);
    expect(await unnest([[]])).toEqual([]);
    const byIds = driver.prepare('note_by_ids', 'SELECT id FROM notes WHERE id = ANY($1::int[]) ORDER BY id');
    // Past the first five runs Postgres may switch to a generic plan: answers must not change.
    for (let run = 0; run < 8; run++) expect(await byIds([[1, 3, 99]])).toEqual([{ id: 1 }, { id: 3 }, { id: 99 }]);
  });

  it('prepares once when the first calls arrive together', async () => {
    const count = opened.driver.prepare('note_count', 'SELECT count(*)::int AS n FROM notes WHERE id < $1::int');
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => count<{ n: number }>([i])));
    expect(answers.map(([row]) => row?.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 6]);
  });

  it('turns away bad statement names and NUL characters before reaching the database', async () => {
    expect(() => opened.driver.prepare('x; DROP TABLE notes', 'SELECT 1')).toThrow(/bad prepared statement name/);
    expect(() => sqlLiteral('a\0b')).toThrow(/NUL/);
  });
});
