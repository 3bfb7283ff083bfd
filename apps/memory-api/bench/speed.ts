/**
 * Speed, embedded default (PGlite in memory, GloVe, in-process HNSW), in one run:
 *   remember throughput over HTTP from one client; /import throughput; recall p50/p95 at 1k, 10k
 *   and 100k memories beside an exact brute-force scan over the same vectors.
 *   npm run bench:speed -w apps/memory-api      (SPEED_SIZES=1000,10000 for a shorter run)
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { BruteForceIndex } from '@trove/embeddings';
import { createLogger } from '@trove/service-kit';
import { median, percentile } from '@trove/stats';
import { buildMemoryApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';
import { inProcessCatalog } from '../src/memories/memory-index.ts';
import { RECALL_EF } from '../src/memories/vector-catalog.ts';
import { loadRetrievalSet } from './retrieval-set.ts';
import { sentenceMaker } from './synthetic.ts';

const logger = createLogger({ service: 'memory-api', level: 'silent', format: 'json' });
const cacheDir = process.env.EMBEDDINGS_CACHE_DIR ?? join(tmpdir(), 'trove-embeddings-test-cache');
const sizes = (process.env.SPEED_SIZES ?? '1000,10000,100000').split(',').map(Number);
const open = async (thread: boolean) => {
  const config = { DATA_DIR: 'memory://', EMBEDDINGS_CACHE_DIR: cacheDir, EMBEDDED_DATABASE_THREAD: String(thread) };
  const opened = await buildMemoryApp(readConfig(config), logger);
  return { app: opened, url: await opened.listen({ host: '127.0.0.1', port: 0 }) };
};

const { app, url: base } = await open(true);
const { queries } = loadRetrievalSet();
const sentence = sentenceMaker(42);
const ms = (x: number) => x.toFixed(2);

/** Runs requests from a client in a worker thread; returns requests per second, latencies and the last answer. */
function load(method: 'GET' | 'POST', requests: { path: string; body?: string }[], concurrency: number, url = base) {
  return new Promise<{ perSecond: number; latencies: number[]; last: string }>((resolve, reject) => {
    const worker = new Worker(new URL('./http-worker.mjs', import.meta.url), {
      workerData: { url, method, requests, concurrency },
    });
    worker.once('message', (m: { seconds: number; latencies: number[]; last: string }) =>
      resolve({ perSecond: requests.length / m.seconds, latencies: m.latencies, last: m.last }),
    );
    worker.once('error', reject);
  });
}

// 1. remember over HTTP from one client (another thread): one request at a time, then 8 in
// flight; beside the same client against the health probe (what HTTP alone allows here), and
// beside the same with the embedded database in the service's thread (EMBEDDED_DATABASE_THREAD=false).
// The two modes take turns in rounds, so a machine busy with other work weighs on both alike;
// rates are the median round's, latencies are over all rounds.
const REMEMBER_N = 1000;
const ROUNDS = 5;
const remembers = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    path: '/remember',
    body: JSON.stringify({ content: sentence(), namespace: `ns${i % 4}` }),
  }));
const probes = (n: number) => Array.from({ length: n }, () => ({ path: '/livez' }));
type Run = { perSecond: number; latencies: number[] };
const rate = (runs: Run[]) => {
  const perSecond = median(runs.map((r) => r.perSecond));
  const latencies = runs.flatMap((r) => r.latencies);
  return `${perSecond.toFixed(0)}/s (p50 ${ms(percentile(latencies, 50))} ms, p95 ${ms(percentile(latencies, 95))} ms)`;
};
console.log(`remember over HTTP, one client, ${REMEMBER_N} each (${ROUNDS} rounds, the two modes in turn):`);
const modes = [
  { name: 'on its own thread (default)', target: { app, url: base } },
  { name: 'in the service thread', target: await open(false) },
].map((m) => ({ ...m, probe: [] as Run[], sequential: [] as Run[], concurrent: [] as Run[] }));
// Warm-up, not counted: compiled code, planned statements and connections are ready for both.
for (const { target } of modes) {
  await load('GET', probes(200), 1, target.url);
  await load('POST', remembers(200), 1, target.url);
}
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of modes) {
    mode.probe.push(await load('GET', probes(REMEMBER_N / ROUNDS), 1, mode.target.url));
    mode.sequential.push(await load('POST', remembers(REMEMBER_N / ROUNDS), 1, mode.target.url));
    mode.concurrent.push(await load('POST', remembers(REMEMBER_N / ROUNDS), 8, mode.target.url));
  }
}
for (const mode of modes) {
  console.log(`  embedded database ${mode.name}:`);
  console.log(`    one at a time: ${rate(mode.sequential)}`);
  console.log(`    8 in flight:   ${rate(mode.concurrent)}`);
  console.log(`    GET /livez one at a time (HTTP ceiling): ${rate(mode.probe)}`);
}
await modes[1]?.target.app.close();

// 2. /import, batches of 5000 lines per request, over HTTP.
const importTo = async (target: number) => {
  const store = app.memoryStore;
  let count = await store.db.prisma.memory.count();
  let imported = 0;
  const started = performance.now();
  while (count < target) {
    const n = Math.min(5000, target - count);
    const jsonl = Array.from({ length: n }, (_, i) =>
      JSON.stringify({ content: sentence(), namespace: `ns${i % 4}`, tags: [`t${i % 20}`] }),
    ).join('\n');
    const { last } = await load('POST', [{ path: '/import', body: JSON.stringify({ content: jsonl }) }], 1);
    const res = JSON.parse(last) as { imported: number };
    imported += res.imported;
    count += res.imported;
  }
  return { imported, seconds: (performance.now() - started) / 1000 };
};

const queryTexts = queries.map((q) => q.query);
console.log(
  '\n| memories | import/s (to reach size) | HNSW search p50 / p95 ms | HNSW recall@10 vs exact | brute-force scan p50 / p95 ms | /recall vector p50 / p95 ms | /recall fusion p50 / p95 ms |',
);
console.log('|---|---|---|---|---|---|---|');
for (const size of sizes) {
  const { imported, seconds } = await importTo(size);
  const store = app.memoryStore;
  const exact = new BruteForceIndex(store.embedder.dimensions);
  for (const id of inProcessCatalog(store.index).indexedIds())
    exact.upsert(id, inProcessCatalog(store.index).vector(id) as Float32Array);
  const vectors = await store.embedder.embed(queryTexts);
  const hnsw: number[] = [];
  const brute: number[] = [];
  let agree = 0;
  for (let round = 0; round < 3; round++) {
    for (const v of vectors) {
      let s = performance.now();
      const approximate = inProcessCatalog(store.index).search(v, 10, {}, RECALL_EF);
      hnsw.push(performance.now() - s);
      s = performance.now();
      const truth = exact.search(v, 10);
      brute.push(performance.now() - s);
      const found = new Set(approximate.map((h) => h.id));
      agree += truth.filter((h) => found.has(h.id)).length / Math.max(1, truth.length);
    }
  }
  const recallAt10 = agree / (3 * vectors.length);
  const timed = async (strategy: string) => {
    const out: number[] = [];
    for (let round = 0; round < 2; round++) {
      for (const q of queryTexts) {
        const s = performance.now();
        const res = await app.inject({ method: 'POST', url: '/recall', payload: { query: q, strategy, limit: 10 } });
        out.push(performance.now() - s);
        // A failed recall is fast: timing it would flatter the figures.
        if (res.statusCode !== 200) throw new Error(`/recall answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
      }
    }
    return out;
  };
  const vec = await timed('vector');
  const fusion = await timed('fusion');
  console.log(
    `| ${size.toLocaleString('en')} | ${imported > 0 ? (imported / seconds).toFixed(0) : '-'} | ${ms(percentile(hnsw, 50))} / ${ms(percentile(hnsw, 95))} | ${recallAt10.toFixed(3)} | ${ms(percentile(brute, 50))} / ${ms(percentile(brute, 95))} | ${ms(percentile(vec, 50))} / ${ms(percentile(vec, 95))} | ${ms(percentile(fusion, 50))} / ${ms(percentile(fusion, 95))} |`,
  );
}
await app.close();
