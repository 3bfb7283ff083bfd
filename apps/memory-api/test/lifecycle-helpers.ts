import { expect } from 'vitest';
import type { TestApp } from './helpers.ts';

/** Every row of every table a lifecycle or maintenance call could touch, to prove a call changed nothing. */
export async function snapshot(t: TestApp): Promise<string> {
  const tables = ['memories', 'memory_events', 'memory_edges', 'room_members', 'graph_nodes', 'graph_edges'];
  const out: Record<string, unknown> = {};
  for (const table of tables) {
    out[table] = await t.app.memoryStore.db.sql.query(
      `SELECT to_jsonb(x) - 'search_vector' AS row FROM ${table} x ORDER BY to_jsonb(x)::text`,
    );
  }
  return JSON.stringify(out);
}

/** Stores a memory (it must be new: 201) and returns its id. */
export async function remember(t: TestApp, content: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await t.call('POST', '/remember', { content, ...extra });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** Makes a memory look unused for `days` days, read `reads` times. */
export async function makeOld(t: TestApp, id: string, days: number, reads = 0): Promise<void> {
  await t.app.memoryStore.db.sql.query(
    `UPDATE memories SET created_at = now() - make_interval(days => $2::int), last_accessed_at = NULL,
            access_count = $3 WHERE id = $1::uuid`,
    [id, days, reads],
  );
}

/** A memory's timeline events, oldest first. */
export const events = (t: TestApp, id: string) =>
  t.app.memoryStore.db.prisma.memoryEvent.findMany({ where: { memoryId: id }, orderBy: { id: 'asc' } });

// Near-duplicates under the hashing embedder (64 dimensions): DEPLOY[0..2] are pairwise 0.85-0.94
// similar, GROCERY[0..1] 0.86; the groups are about 0 to each other and to NAS.
export const DEPLOY = [
  'the deploy pipeline runs integration tests before every release to production servers',
  'the deploy pipeline runs integration tests before each release to production servers',
  'the deploy pipeline runs integration tests before every release to production hosts',
];
export const GROCERY = [
  'grocery list includes oat milk bananas sourdough bread and coffee beans',
  'grocery list includes oat milk bananas sourdough bread and coffee grounds',
];
export const NAS = 'vacation photos from iceland are backed up on the nas drive';

export const get = async (t: TestApp, id: string) => (await t.call('GET', `/memory?id=${id}`)).body;
export const edgesFrom = (t: TestApp, id: string, edgeType: string) =>
  t.app.memoryStore.db.prisma.memoryEdge.findMany({ where: { sourceId: id, edgeType } });
