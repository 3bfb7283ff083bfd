/**
 * GET /graph latency, embedded default (PGlite in memory), in one run:
 *   a namespace of 1,000 memories with 5,000 edges (4,500 memory edges, 500 explicit edges), beside
 *   another namespace of the same size that the filter must skip. Prints p50/p95 of
 *   - the baseline: the raw SQL that reads the same 5,000 edge rows with no liveness checks,
 *     node lookups, sorting or JSON;
 *   - the same answer built in process (no HTTP, no JSON);
 *   - GET /graph at limit 5000 (everything), at the default 500, and neighbourhoods of depth 1..3.
 *   npm run bench:graph -w apps/memory-api        (GRAPH_RUNS=50 by default)
 */
import { HashEmbedder } from '@trove/embeddings';
import { createLogger } from '@trove/service-kit';
import { percentile } from '@trove/stats';
import { buildMemoryApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';
import { readGraph } from '../src/graph/graph-view.ts';

const logger = createLogger({ service: 'memory-api', level: 'silent', format: 'json' });
const RUNS = Number(process.env.GRAPH_RUNS ?? 50);
const MEMORIES = 1000;
const MEMORY_EDGES = 4500;
const EXPLICIT_EDGES = 500;

// The graph reads rows only; the hashing embedder keeps start-up out of the measurement.
const app = await buildMemoryApp(readConfig({ DATA_DIR: 'memory://', EMBEDDER: 'hash' }), logger, new HashEmbedder(64));
const base = await app.listen({ host: '127.0.0.1', port: 0 });
const sql = app.memoryStore.db.sql;

/** Memories, memory edges (each memory to the next few, weights spread over 0..1) and explicit edges, all by SQL. */
async function load(namespace: string): Promise<string[]> {
  const rows = await sql.query<{ id: string }>(
    `INSERT INTO memories (id, content, namespace, memory_type, content_hash)
     SELECT gen_random_uuid(), 'graph bench memory ' || i, $1, 'fact', md5($1 || i) FROM generate_series(1, $2::int) i
     RETURNING id::text AS id`,
    [namespace, MEMORIES],
  );
  const ids = rows.map((r) => r.id);
  const perMemory = MEMORY_EDGES / MEMORIES;
  const edges: [string, string, number][] = [];
  for (let i = 0; i < ids.length; i++)
    for (let k = 1; k <= Math.ceil(perMemory); k++)
      if (edges.length < MEMORY_EDGES)
        edges.push([ids[i] as string, ids[(i + k * 7) % ids.length] as string, ((i * 13 + k) % 100) / 100 + 0.005]);
  await sql.query(
    `INSERT INTO memory_edges (id, source_id, target_id, edge_type, weight)
     SELECT gen_random_uuid(), (e->>0)::uuid, (e->>1)::uuid, 'similar_to', (e->>2)::float8 FROM jsonb_array_elements($1::jsonb) e`,
    [JSON.stringify(edges)],
  );
  await sql.query(
    `INSERT INTO graph_nodes (id, namespace, label, kind, memory_id)
     SELECT gen_random_uuid(), $1, 'node', 'memory', (jsonb_array_elements_text($2::jsonb))::uuid`,
    [namespace, JSON.stringify(ids)],
  );
  await sql.query(
    `INSERT INTO graph_edges (id, source_id, target_id, edge_type, weight)
     SELECT gen_random_uuid(), s.id, t.id, 'related_to', 0.5
       FROM generate_series(0, $2::int - 1) i
       JOIN graph_nodes s ON s.memory_id = ($3::jsonb->>(i % $4::int))::uuid
       JOIN graph_nodes t ON t.memory_id = ($3::jsonb->>((i * 31 + 3) % $4::int))::uuid
      WHERE s.namespace = $1`,
    [namespace, EXPLICIT_EDGES, JSON.stringify(ids), MEMORIES],
  );
  return ids;
}

async function time(label: string, fn: (i: number) => Promise<number>): Promise<void> {
  await fn(0); // warm-up: plans and caches
  const samples: number[] = [];
  let size = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    size = await fn(i);
    samples.push(performance.now() - t0);
  }
  console.log(
    `${label.padEnd(46)} ${String(size).padStart(6)} edges   p50 ${percentile(samples, 50).toFixed(2).padStart(7)} ms   p95 ${percentile(samples, 95).toFixed(2).padStart(7)} ms`,
  );
}

async function graph(query: string): Promise<number> {
  const res = await fetch(`${base}/graph?${query}`);
  if (!res.ok) throw new Error(`/graph?${query}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { edges: unknown[] }).edges.length;
}

const t0 = performance.now();
const ids = await load('bench');
await load('other');
// Analyse after the bulk load now rather than at the autovacuum's next check.
await app.memoryStore.db.autovacuum.check();
console.log(
  `loaded 2 x (${MEMORIES} memories, ${MEMORY_EDGES} memory edges, ${EXPLICIT_EDGES} explicit edges) in ${Math.round(performance.now() - t0)} ms; ${RUNS} runs each\n`,
);

// The baseline reads the same 5,000 rows (both edge tables of the namespace) with none of the
// liveness checks, node lookups, sorting or JSON that /graph adds.
await time('baseline: raw SQL, the same 5000 edge rows', async () => {
  const rows = await sql.query(
    `SELECT e.id, e.source_id, e.target_id, e.edge_type, e.weight, e.created_at FROM memory_edges e
       JOIN memories s ON s.id = e.source_id WHERE s.namespace = 'bench'
     UNION ALL
     SELECT g.id, g.source_id, g.target_id, g.edge_type, g.weight, g.created_at FROM graph_edges g
       JOIN graph_nodes n ON n.id = g.source_id WHERE n.namespace = 'bench'`,
  );
  return rows.length;
});
await time('readGraph() in process, limit 5000 (no HTTP)', async () => {
  const answer = await readGraph(app.memoryStore, { namespace: 'bench', depth: 1, limit: 5000 });
  return answer.edges.length;
});
await time('GET /graph?namespace=bench&limit=5000', () => graph('namespace=bench&limit=5000'));
await time('GET /graph?namespace=bench (default 500)', () => graph('namespace=bench'));
for (const depth of [1, 2, 3])
  await time(`GET /graph?node_id=..&depth=${depth}&namespace=bench`, (i) =>
    graph(`node_id=${ids[(i * 37) % ids.length]}&depth=${depth}&namespace=bench&limit=5000`),
  );

await app.close();
