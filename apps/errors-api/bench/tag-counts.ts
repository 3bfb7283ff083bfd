/**
 * What counting tags costs the embedded database each second, the way they were written before
 * (every counted row rewritten once a second) against now (values new to an issue at once, the
 * counts of known ones every 10 s), in one process, interleaved second by second:
 * `npx tsx apps/errors-api/bench/tag-counts.ts` (BENCH_SECONDS, default 60 simulated seconds each).
 * Each side has its own database on disk with 20 issues and 11 tag values each, gets the same
 * events every second, and runs the embedded database's upkeep (autovacuum's rules) after each
 * second, as the service does; the CPU time of both is what is compared.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Autovacuum, applyMigrations, pgliteDriver, readMigrations } from '@trove/data';
import { createLogger } from '@trove/service-kit';
import { median } from '@trove/stats';
import type { ErrorsDatabase } from '../src/db.ts';
import { MIGRATIONS_DIR } from '../src/db.ts';
import { TagCounts } from '../src/ingest/tag-counts.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const EVENTS_PER_SECOND = 500;
const logger = createLogger({ service: 'bench', level: 'silent', format: 'json' });
const issueId = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

async function side(name: string, second: (counts: TagCounts, n: number) => Promise<void>) {
  const dir = await mkdtemp(join(tmpdir(), 'tag-counts-bench-'));
  const pg = await PGlite.create({ dataDir: dir });
  const driver = pgliteDriver(pg);
  await applyMigrations(driver, await readMigrations(MIGRATIONS_DIR));
  await pg.exec(`INSERT INTO projects (id, name, slug, dsn_key) VALUES (1, 'p', 'p', '${'a'.repeat(32)}')`);
  for (let i = 0; i < 20; i++) {
    await pg.exec(`INSERT INTO issues (id, project_id, fingerprint, grouping, title, level, first_seen, last_seen)
      VALUES ('${issueId(i)}', 1, 'f${i}', '{}', 't', 'error', now(), now())`);
  }
  const upkeep = new Autovacuum(driver);
  await upkeep.start();
  // Timers that never come due: the bench says when each second ends.
  const counts = new TagCounts({ sql: driver } as unknown as ErrorsDatabase, logger, 3_600_000, 3_600_000);
  return {
    name,
    cpuMs: [] as number[],
    async run(n: number) {
      const at = new Date().toISOString();
      for (let e = 0; e < EVENTS_PER_SECOND; e++) {
        const tags = Array.from({ length: 11 }, (_, k): [string, string] => [`key${k}`, `value ${k} ${e % 3}`]);
        counts.add(1, issueId(e % 20), tags, at);
      }
      await second(counts, n);
      await upkeep.check();
    },
    async close() {
      await pg.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const writeNew = (counts: TagCounts) => (counts as unknown as { write(all: boolean): Promise<void> }).write(false);
const sides = [
  await side('before: every row each second', (counts) => counts.flush()),
  await side('now: new values each second, counts every 10 s', (counts, n) =>
    n % 10 === 9 ? counts.flush() : writeNew(counts),
  ),
];
for (const s of sides) await s.run(0); // the first second writes every row on both sides
for (let n = 0; n < SECONDS; n++) {
  for (const s of n % 2 === 0 ? sides : [...sides].reverse()) {
    const before = process.cpuUsage();
    await s.run(n);
    const used = process.cpuUsage(before);
    s.cpuMs.push((used.user + used.system) / 1000);
  }
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`tag counts, ${EVENTS_PER_SECOND} events a second over 20 issues (220 tag rows), ${SECONDS} s each:`);
for (const s of sides) {
  console.log(
    `${s.name.padEnd(48)} CPU per second: mean ${mean(s.cpuMs).toFixed(2)} ms, median ${median(s.cpuMs).toFixed(2)} ms = ${((mean(s.cpuMs) * 1000) / EVENTS_PER_SECOND).toFixed(1)} us per event`,
  );
}
for (const s of sides) await s.close();
