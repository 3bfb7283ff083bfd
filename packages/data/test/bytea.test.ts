import { randomBytes } from 'node:crypto';
import { PGlite, types } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BYTEA, nativeByteaClient, parseBytea } from '../src/bytea.ts';

describe('bytea decoded natively', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await PGlite.create();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('decodes exactly as PGlite’s own parser does, empty and odd bytes included', async () => {
    for (const bytes of [
      Buffer.alloc(0),
      Buffer.from([0, 255, 16, 1]),
      randomBytes(1),
      randomBytes(400),
      randomBytes(4097),
    ]) {
      const { rows } = await db.query<{ text: string }>('SELECT $1::bytea::text AS text', [new Uint8Array(bytes)]);
      const text = rows[0]?.text as string;
      const ours = parseBytea(text);
      expect(ours).toEqual(types.parsers[BYTEA]?.(text, BYTEA));
      expect(Buffer.from(ours).equals(bytes)).toBe(true);
      expect(ours.constructor).toBe(Uint8Array);
      expect(ours.byteOffset).toBe(0); // its own buffer: a Float32Array view over it is aligned
    }
  });

  it('replaces the caller’s bytea parser in queries and transactions, and leaves the rest to the client', async () => {
    const client = nativeByteaClient(db);
    const slow = { [BYTEA]: () => 'the caller’s parser', 25: (t: string) => `text:${t}` };
    const sql = `SELECT '\\x00ff10'::bytea AS b, 'x'::text AS t`;
    const { rows } = await client.query<{ b: unknown; t: unknown }>(sql, [], { parsers: slow });
    expect(rows[0]).toEqual({ b: new Uint8Array([0, 255, 16]), t: 'text:x' });
    const inTx = await client.transaction(
      async (tx) => (await tx.query<{ b: unknown }>(sql, [], { parsers: slow })).rows[0]?.b,
    );
    expect(inTx).toEqual(new Uint8Array([0, 255, 16]));
    await client.exec('CREATE TABLE blobs (b bytea)');
    expect((await client.query('SELECT count(*)::int AS n FROM blobs')).rows).toEqual([{ n: 0 }]);
  });
});
