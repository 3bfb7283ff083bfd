/**
 * Two replicas on one Postgres, in one run, at one size:
 *   recall p50/p95 on replica A with writes taken by A itself (single process, the baseline),
 *   beside recall on A with the writes taken by replica B and reaching A over the change feed;
 *   and how long a write acknowledged by B takes to be in A's index (p50/p99).
 *   npm run bench:replicas -w apps/memory-api -- --count 100000 [--rounds 300]
 * Needs a Postgres server where it may create a throwaway database: BENCH_DATABASE_URL or
 * TEST_DATABASE_URL. Both replicas run in this process (each with its own pool, LISTEN connection
 * and index), and the phases take turns, so neither phase's recalls compete with the other's work.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createThrowawayDatabase } from '@trove/data';
import { createLogger } from '@trove/service-kit';
import { percentile } from '@trove/stats';
import type { FastifyInstance } from 'fastify';
import { buildMemoryApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';
import { inProcessCatalog } from '../src/memories/memory-index.ts';
import { sentenceMaker } from './synthetic.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '300' },
  },
});
const count = Number(values.count);
const rounds = Number(values.rounds);
const server = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!server) {
  console.error(
    'set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a Postgres server, e.g. postgres://postgres@127.0.0.1:5432/postgres',
  );
  process.exit(2);
}

const logger = createLogger({ service: 'memory-api', level: 'silent', format: 'json' });
const cacheDir = process.env.EMBEDDINGS_CACHE_DIR ?? join(tmpdir(), 'trove-embeddings-test-cache');
const sentence = sentenceMaker(7);
const ms = (x: number) => x.toFixed(2);
const database = await createThrowawayDatabase(server, 'bench_replicas');

const open = (migrate: 'apply' | 'verify') =>
  buildMemoryApp(
    readConfig({ DATABASE_URL: database.url, MIGRATE_ON_START: migrate, EMBEDDINGS_CACHE_DIR: cacheDir }),
    logger,
  );

async function call(app: FastifyInstance, url: string, body: unknown) {
  const res = await app.inject({ method: 'POST', url, payload: body as object });
  if (res.statusCode >= 300) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
  return res.json();
}

const recallOnce = async (app: FastifyInstance, strategy: string) => {
  const started = performance.now();
  await call(app, '/recall', {
    query: sentence(),
    strategy,
    limit: 10,
    namespace: `ns${Math.floor(Math.random() * 4)}`,
  });
  return performance.now() - started;
};

/** Interleaves a write (untimed, on `writer`) with timed recalls on `reader`, once the reader holds the write. */
async function phase(reader: FastifyInstance, writer: FastifyInstance) {
  const timings: Record<'vector' | 'fusion', number[]> = { vector: [], fusion: [] };
  const visible: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const made = await call(writer, '/remember', { content: sentence(), namespace: `ns${i % 4}` });
    const acknowledged = performance.now();
    // Yields to the event loop between looks, so the reader's notification and read can run.
    while (!inProcessCatalog(reader.memoryStore.index).hasVector(made.id)) await new Promise((r) => setImmediate(r));
    visible.push(performance.now() - acknowledged);
    timings.vector.push(await recallOnce(reader, 'vector'));
    timings.fusion.push(await recallOnce(reader, 'fusion'));
  }
  return { timings, visible };
}

try {
  const a = await open('apply');
  let loaded = 0;
  const loadStarted = performance.now();
  while (loaded < count) {
    const n = Math.min(5000, count - loaded);
    const lines = Array.from({ length: n }, (_, i) =>
      JSON.stringify({ content: sentence(), namespace: `ns${(loaded + i) % 4}` }),
    ).join('\n');
    loaded += (await call(a, '/import', { content: lines })).imported;
  }
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  // The server's autovacuum analyses the grown tables within about a minute, which would change the
  // plans in the middle of a phase; analysed now, both phases run on the same plans.
  await a.memoryStore.db.sql.query('ANALYZE');
  // Warm-up, not counted.
  for (let i = 0; i < 50; i++) await recallOnce(a, 'fusion');

  const single = await phase(a, a);
  const bStarted = performance.now();
  const b = await open('verify');
  const bStart = (performance.now() - bStarted) / 1000;
  for (let i = 0; i < 50; i++) await recallOnce(a, 'fusion');
  const replicas = await phase(a, b);

  const p = (xs: number[], q: number) => ms(percentile(xs, q));
  const change = (base: number[], other: number[]) =>
    `${(((percentile(other, 95) - percentile(base, 95)) / percentile(base, 95)) * 100).toFixed(1)}%`;
  console.log(
    `${count.toLocaleString('en')} memories on Postgres (imported in ${loadSeconds.toFixed(0)} s; replica B started in ${bStart.toFixed(1)} s), GloVe, ${rounds} rounds of one write then one recall of each strategy:\n`,
  );
  console.log(
    '| recall on A | single process (writes on A) p50 / p95 ms | two replicas (writes on B, via the feed) p50 / p95 ms | p95 change |',
  );
  console.log('|---|---|---|---|');
  for (const s of ['vector', 'fusion'] as const) {
    const x = single.timings[s];
    const y = replicas.timings[s];
    console.log(`| ${s} | ${p(x, 50)} / ${p(x, 95)} | ${p(y, 50)} / ${p(y, 95)} | ${change(x, y)} |`);
  }
  const v = replicas.visible;
  console.log(
    `\nwrite acknowledged by B → in A's index: p50 ${p(v, 50)} ms, p99 ${p(v, 99)} ms, max ${ms(Math.max(...v))} ms (goal: p99 under 100 ms)`,
  );
  await b.close();
  await a.close();
} finally {
  await database.drop();
}
