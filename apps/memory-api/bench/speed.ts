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
import { buildMemoryApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';
import { inProcessCatalog } from '../src/memories/memory-index.ts';
import { RECALL_EF } from '../src/memories/vector-catalog.ts';
import { loadRetrievalSet } from './retrieval-set.ts';
import { percentile, sentenceMaker } from './synthetic.ts';

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
const REMEMBER_N = 1000;
const remembers = (n = REMEMBER_N) =>
  Array.from({ length: n }, (_, i) => ({
    path: '/remember',
    body: JSON.stringify({ content: sentence(), namespace: `ns${i % 4}` }),
  }));
const probes = () => Array.from({ length: REMEMBER_N }, () => ({ path: '/livez' }));
const rate = (r: { perSecond: number; latencies: number[] }) =>
  `${r.perSecond.toFixed(0)}/s (p50 ${ms(percentile(r.latencies, 50))} ms, p95 ${ms(percentile(r.latencies, 95))} ms)`;
console.log(`remember over HTTP, one client, ${REMEMBER_N} each:`);
for (const thread of [true, false]) {
  const target = thread ? { app, url: base } : await open(false);
  // Warm-up, not counted: compiled code, planned statements and connections are ready for both.
  await load('GET', probes(), 1, target.url);
  await load('POST', remembers(200), 1, target.url);
  const probe = await load('GET', probes(), 1, target.url);
  const sequential = await load('POST', remembers(), 1, target.url);
  const concurrent = await load('POST', remembers(), 8, target.url);
  console.log(`  embedded database ${thread ? 'on its own thread (default)' : 'in the service thread'}:`);
  console.log(`    one at a time: ${rate(sequential)}`);
  console.log(`    8 in flight:   ${rate(concurrent)}`);
  console.log(`    GET /livez one at a time (HTTP ceiling): ${rate(probe)}`);
  if (!thread) await target.app.close();
}

// 2. /import, batches of 5000 lines per request, over HTTP.
const importTo = async (target: number) => {
  const store = app.memoryStore;
  let count = await store.prisma.memory.count();
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
        await app.inject({ method: 'POST', url: '/recall', payload: { query: q, strategy, limit: 10 } });
        out.push(performance.now() - s);
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
