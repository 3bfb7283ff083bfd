/**
 * The ingest statement alone, before and after releases and tags, in one process on one embedded
 * database, interleaved batch by batch so that whatever else the machine runs weighs on both
 * alike: `npx tsx apps/errors-api/bench/batch-ab.ts` (BENCH_ROUNDS, BENCH_BATCH, BENCH_BEFORE).
 * "before" is errors_ingest_batch as the migration BENCH_BEFORE defined it, by default
 * 20261124130959 (the statement before issue 31: no release or environment, the issue keeping its
 * first title), given the same prepared events; "after" is today's, which also answers which events
 * were stored so that their tags are counted later (one statement a second, not timed here).
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { applyMigrations, pgliteDriver, readMigrations } from '@trove/data';
import { median } from '@trove/stats';
import { MIGRATIONS_DIR } from '../src/db.ts';
import { batchJson } from '../src/ingest/event-writer.ts';
import { compressPayload, parseEventJson, prepareEvent } from '../src/ingest/prepare-event.ts';
import { payloadSet } from './payloads.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 150);
const BATCH = Number(process.env.BENCH_BATCH ?? 32);

const db = await PGlite.create();
await applyMigrations(pgliteDriver(db), await readMigrations(MIGRATIONS_DIR));
const migration = await readFile(
  join(MIGRATIONS_DIR, `${process.env.BENCH_BEFORE ?? '20261124130959_dashboard_rollups'}/migration.sql`),
  'utf8',
);
const before = /CREATE (?:OR REPLACE )?FUNCTION "errors_ingest_batch"[\s\S]*?\$fn\$;/
  .exec(migration)?.[0]
  .replace(/^CREATE FUNCTION/, 'CREATE OR REPLACE FUNCTION')
  .replace('"errors_ingest_batch"', '"errors_ingest_batch_before"');
if (!before) throw new Error('BENCH_BEFORE: that migration defines no errors_ingest_batch');
await db.exec(before);
await db.exec(`INSERT INTO projects (name, slug, dsn_key) VALUES ('p', 'p', '${'a'.repeat(32)}')`);
const [{ id }] = (await db.query<{ id: number }>('SELECT id FROM projects')).rows as [{ id: number }];

const set = payloadSet('5 KB', 5 * 1024, false);
function batch(): string {
  return batchJson(
    Array.from({ length: BATCH }, (_, i) => {
      const tail = set.tails[i % set.tails.length] as Buffer;
      const bytes = Buffer.concat([Buffer.from(`{"event_id":"${randomBytes(16).toString('hex')}",`), tail]);
      return prepareEvent(parseEventJson(bytes), { id, slug: 'p' }, undefined, compressPayload(bytes));
    }),
  );
}

const times: Record<string, number[]> = { before: [], after: [] };
const fns = { before: 'errors_ingest_batch_before', after: 'errors_ingest_batch' } as const;
for (let round = 0; round < ROUNDS + 10; round++) {
  const order = round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
  for (const variant of order) {
    const input = batch();
    const start = performance.now();
    await db.query(`SELECT ${fns[variant]}($1::json)`, [input]);
    if (round >= 10) times[variant]?.push(performance.now() - start); // the first rounds warm up
  }
}
console.log(`ingest statement, ${BATCH} events of 5 KB per batch (20 issues), ${ROUNDS} batches each, interleaved:`);
for (const [variant, xs] of Object.entries(times)) {
  const m = median(xs);
  console.log(
    `${variant.padEnd(7)} median ${m.toFixed(2)} ms per batch = ${Math.round((BATCH * 1000) / m)} events/s of statement time`,
  );
}
await db.close();
