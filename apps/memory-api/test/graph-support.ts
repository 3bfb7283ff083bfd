// What the graph and supersession tests share: seeding rows and edges, and reading tables.
import { randomUUID } from 'node:crypto';
import type { TestApp } from './helpers.ts';

// The hashing embedder scores shared words; these bounds suit it (the defaults suit GloVe).
export const HASH_BOUNDS = { DUPLICATE_THRESHOLD: '0.95', LINK_THRESHOLD: '0.5', CONTRADICTION_THRESHOLD: '0.6' };

export const sql = <R = Record<string, unknown>>(app: TestApp, text: string, params: unknown[] = []) =>
  app.app.memoryStore.db.sql.query<R>(text, params);
export const remember = (app: TestApp, body: Record<string, unknown>) => app.call('POST', '/remember', body);

/** Memories straight into the table (fast; the graph reads rows, not the vector index). */
export async function seedMemories(app: TestApp, namespace: string, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => randomUUID());
  await sql(
    app,
    `INSERT INTO memories (id, content, namespace, memory_type, content_hash)
     SELECT id::uuid, 'seeded memory ' || ord, $2, 'fact', md5(id) FROM jsonb_array_elements_text($1::jsonb) WITH ORDINALITY AS x(id, ord)`,
    [JSON.stringify(ids), namespace],
  );
  return ids;
}

export async function seedEdges(app: TestApp, edges: [string, string, number][], type = 'similar_to'): Promise<void> {
  await sql(
    app,
    `INSERT INTO memory_edges (id, source_id, target_id, edge_type, weight)
     SELECT gen_random_uuid(), (e->>0)::uuid, (e->>1)::uuid, $2, (e->>2)::float8 FROM jsonb_array_elements($1::jsonb) e`,
    [JSON.stringify(edges), type],
  );
}

export const edgeKeys = (edges: { source: string; target: string }[]) =>
  edges.map((e) => `${e.source}>${e.target}`).sort();
export const count = async (app: TestApp, table: string) =>
  Number((await sql<{ n: number }>(app, `SELECT count(*)::int AS n FROM ${table}`))[0]?.n);
