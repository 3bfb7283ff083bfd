/**
 * Warm start with a large store, in one run: the embedded database in a directory holding
 * START_SIZE synthetic memories (default 100,000), started with the vector graph saved at the last
 * stop removed (a plain build from the stored embeddings) and with it read back, taking turns for
 * START_ROUNDS rounds (default 2). Prints each start (until the app is ready) and each stop.
 *   npm run bench:start -w apps/memory-api
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@trove/service-kit';
import { buildMemoryApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';
import { inProcessCatalog } from '../src/memories/memory-index.ts';
import { sentenceMaker } from './synthetic.ts';

const size = Number(process.env.START_SIZE ?? 100_000);
const rounds = Number(process.env.START_ROUNDS ?? 2);
const dir = mkdtempSync(join(tmpdir(), 'memory-api-start-'));
const cacheDir = process.env.EMBEDDINGS_CACHE_DIR ?? join(tmpdir(), 'trove-embeddings-test-cache');
const logger = createLogger({ service: 'memory-api', level: 'silent', format: 'json' });
const open = () => buildMemoryApp(readConfig({ DATA_DIR: dir, EMBEDDINGS_CACHE_DIR: cacheDir }), logger);
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

try {
  const app = await open();
  const sentence = sentenceMaker(42);
  for (let count = 0; count < size; ) {
    const jsonl = Array.from({ length: Math.min(5000, size - count) }, (_, i) =>
      JSON.stringify({ content: sentence(), namespace: `ns${i % 4}` }),
    ).join('\n');
    const res = await app.inject({ method: 'POST', url: '/import', payload: { content: jsonl } });
    count += (res.json() as { imported: number }).imported;
  }
  await app.close();
  console.log(`${size.toLocaleString('en')} memories in ${dir}`);
  console.log('| start | start s | vectors reused | stop s |\n|---|---|---|---|');
  for (let round = 0; round < rounds; round++) {
    for (const saved of [false, true]) {
      if (!saved)
        for (const f of ['vector-index.hnsw', 'vector-index.hnsw.json']) rmSync(join(dir, f), { force: true });
      const started = performance.now();
      const warm = await open();
      const startSeconds = seconds(started);
      const reused = inProcessCatalog(warm.memoryStore.index).reused;
      const stopping = performance.now();
      await warm.close();
      const how = saved ? 'graph read back' : 'plain build';
      console.log(`| ${how} | ${startSeconds} | ${reused.toLocaleString('en')} | ${seconds(stopping)} |`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
