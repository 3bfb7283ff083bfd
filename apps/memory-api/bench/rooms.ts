/**
 * /room/recall speed in a room of 10,000 memories (embedded default: PGlite in memory, GloVe,
 * over HTTP on a real listener), beside two baselines from the same run and the same queries:
 * a plain /recall (vector strategy) restricted to a namespace holding the same 10,000 memories,
 * and an exact in-process scan of the room's vectors (the floor: no HTTP, no SQL).
 *   npm run bench:rooms -w apps/memory-api      (ROOM_SIZE=2000 for a shorter run)
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BruteForceIndex } from '@trove/embeddings';
import { createLogger } from '@trove/service-kit';
import { percentile } from '@trove/stats';
import { buildMemoryApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';
import { inProcessCatalog } from '../src/memories/memory-index.ts';
import { loadRetrievalSet } from './retrieval-set.ts';
import { sentenceMaker } from './synthetic.ts';

const ROOM_SIZE = Number(process.env.ROOM_SIZE ?? 10_000);
const ROUNDS = 200;
const logger = createLogger({ service: 'memory-api', level: 'silent', format: 'json' });
const cacheDir = process.env.EMBEDDINGS_CACHE_DIR ?? join(tmpdir(), 'trove-embeddings-test-cache');
const app = await buildMemoryApp(readConfig({ DATA_DIR: 'memory://', EMBEDDINGS_CACHE_DIR: cacheDir }), logger);
const base = await app.listen({ host: '127.0.0.1', port: 0 });
const store = app.memoryStore;

const { queries } = loadRetrievalSet();
const sentence = sentenceMaker(7);

async function post(path: string, body: unknown) {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

// Load fast: /import in batches of 5000, then one SQL statement links the namespace into the room.
// Another namespace of the same size makes the room a slice of the store, not all of it.
let t0 = performance.now();
for (const namespace of ['room', 'elsewhere']) {
  for (let done = 0; done < ROOM_SIZE; done += 5000) {
    const n = Math.min(5000, ROOM_SIZE - done);
    const jsonl = Array.from({ length: n }, () => JSON.stringify({ content: sentence(), namespace })).join('\n');
    await post('/import', { content: jsonl });
  }
}
await post('/room/create', { name: 'bench', namespace: 'room' });
await store.db.sql.query(
  `INSERT INTO room_members (room_id, memory_id, author, role, joined_at)
   SELECT 'bench', id, 'agent-' || (abs(hashtext(id::text)) % 5), 'participant', created_at FROM memories WHERE namespace = 'room'`,
);
// Analyse after the bulk link now rather than at the autovacuum's next check.
await store.db.autovacuum.check();
const stats = (await post('/room/stats', { room_id: 'bench' })) as { count: number };
console.log(
  `loaded ${2 * ROOM_SIZE} memories, ${stats.count} in the room, in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

const texts = queries.map((q) => q.query);
async function time(label: string, run: (q: string) => Promise<unknown>) {
  for (const q of texts.slice(0, 20)) await run(q); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const q = texts[i % texts.length] as string;
    const start = performance.now();
    await run(q);
    ms.push(performance.now() - start);
  }
  console.log(`${label.padEnd(52)} p50 ${percentile(ms, 50).toFixed(2)} ms   p95 ${percentile(ms, 95).toFixed(2)} ms`);
}

// The floor: the room's vectors scanned exactly in process, no HTTP and no SQL.
const roomIds = (await store.db.sql.query<{ id: string }>(
  `SELECT memory_id::text AS id FROM room_members WHERE room_id = 'bench'`,
)) as { id: string }[];
const exact = new BruteForceIndex(store.embedder.dimensions);
for (const { id } of roomIds) {
  const v = inProcessCatalog(store.index).vector(id);
  if (v) exact.upsert(id, v);
}

console.log(`\n${ROUNDS} queries each, limit 10 (${ROOM_SIZE} memories in the room and in the namespace)`);
await time('POST /room/recall (semantic, HTTP)', (q) => post('/room/recall', { room_id: 'bench', query: q }));
await time('POST /room/recall (semantic, author filter, HTTP)', (q) =>
  post('/room/recall', { room_id: 'bench', query: q, author: 'agent-1' }),
);
await time('POST /room/recall (chronological, no query, HTTP)', () => post('/room/recall', { room_id: 'bench' }));
await time('baseline: POST /recall vector, namespace (HTTP)', (q) =>
  post('/recall', { query: q, namespace: 'room', strategy: 'vector', search_type: 'memory' }),
);
await time('baseline: POST /recall fusion, namespace (HTTP)', (q) =>
  post('/recall', { query: q, namespace: 'room', search_type: 'memory' }),
);
await time('floor: exact scan of the room vectors (in process)', async (q) =>
  exact.search(await store.embedOne(q), 10),
);

t0 = performance.now();
await post('/room/rename', { from: 'bench', to: 'bench-renamed' });
console.log(`\nPOST /room/rename with ${stats.count} members: ${(performance.now() - t0).toFixed(0)} ms`);
await app.close();
