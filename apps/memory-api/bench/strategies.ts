/**
 * Recall latency of every strategy at one store size, through the app in this process (no HTTP):
 * imports synthetic memories (4 namespaces) to STRATEGIES_SIZE (default 100,000), then asks the
 * retrieval set's questions with no namespace, each strategy in turn, STRATEGIES_ROUNDS rounds
 * (default 4; the first is a warm-up, not counted). Prints p50 / p95 ms per strategy.
 *   npm run bench:strategies -w apps/memory-api
 * It uses only the app, its config and the bench's synthetic sentences and questions, so the same
 * file runs in an older checkout of this app: copy it there and run it right after this one to
 * compare two versions on the same machine.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@trove/service-kit';
import { percentile } from '@trove/stats';
import { buildMemoryApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';
import { loadRetrievalSet } from './retrieval-set.ts';
import { sentenceMaker } from './synthetic.ts';

const size = Number(process.env.STRATEGIES_SIZE ?? 100_000);
const rounds = Number(process.env.STRATEGIES_ROUNDS ?? 4);
const strategies = ['vector', 'fts5', 'hybrid', 'fusion'];
const cacheDir = process.env.EMBEDDINGS_CACHE_DIR ?? join(tmpdir(), 'trove-embeddings-test-cache');

const logger = createLogger({ service: 'memory-api', level: 'silent', format: 'json' });
const app = await buildMemoryApp(readConfig({ DATA_DIR: 'memory://', EMBEDDINGS_CACHE_DIR: cacheDir }), logger);
const sentence = sentenceMaker(42);
const { queries } = loadRetrievalSet();

const started = performance.now();
for (let count = 0; count < size; ) {
  const jsonl = Array.from({ length: Math.min(5000, size - count) }, (_, i) =>
    JSON.stringify({ content: sentence(), namespace: `ns${i % 4}`, tags: [`t${i % 20}`] }),
  ).join('\n');
  const res = await app.inject({ method: 'POST', url: '/import', payload: { content: jsonl } });
  count += (res.json() as { imported: number }).imported;
}
console.log(`${size.toLocaleString('en')} memories imported in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const times = new Map(strategies.map((s) => [s, [] as number[]]));
for (let round = 0; round < rounds; round++) {
  for (const strategy of strategies) {
    for (const { query } of queries) {
      const s = performance.now();
      await app.inject({ method: 'POST', url: '/recall', payload: { query, strategy, limit: 10 } });
      if (round > 0) times.get(strategy)?.push(performance.now() - s);
    }
  }
}
console.log(`/recall, ${queries.length} questions x ${rounds - 1} rounds per strategy:`);
console.log('| strategy | p50 ms | p95 ms |\n|---|---|---|');
for (const [strategy, t] of times) {
  console.log(`| ${strategy} | ${percentile(t, 50).toFixed(2)} | ${percentile(t, 95).toFixed(2)} |`);
}
await app.close();
