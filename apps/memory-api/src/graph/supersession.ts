import { conflict, notFound } from '../domain-error.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import { type MemoryJson, toMemoryJson } from '../memories/record.ts';
import { sqlIso } from '../memories/sql-rows.ts';
import { SUPERSEDED_BY } from './edge-types.ts';

export const CONTRADICTIONS_DEFAULT_LIMIT = 50;
export const CONTRADICTIONS_MAX_LIMIT = 1000;

export interface Contradiction {
  /** The retired (deprecated) memory. */
  memory: MemoryJson;
  /** The memory that superseded it (its status is shown: it may have been forgotten since). */
  superseded_by: MemoryJson;
  similarity: number;
  superseded_at: string;
}

/**
 * Superseded-but-not-restored memories: deprecated, with a `superseded_by` edge still in place.
 * Newest supersession first; the namespace is the retired memory's.
 */
export async function listContradictions(
  store: MemoryStore,
  namespace: string | undefined,
  limit: number,
): Promise<{ contradictions: Contradiction[]; count: number; truncated: boolean }> {
  const params: unknown[] = namespace === undefined ? [] : [namespace];
  params.push(limit + 1);
  const pairs = await store.db.sql.query<{ retired: string; by_id: string; weight: number; created_at: Date }>(
    `SELECT e.source_id::text AS retired, e.target_id::text AS by_id, e.weight, e.created_at
       FROM memory_edges e JOIN memories r ON r.id = e.source_id
      WHERE e.edge_type = '${SUPERSEDED_BY}' AND r.status = 'deprecated' ${namespace === undefined ? '' : 'AND r.namespace = $1'}
      ORDER BY e.created_at DESC, e.id
      LIMIT $${params.length}::int`,
    params,
  );
  const truncated = pairs.length > limit;
  const kept = pairs.slice(0, limit);
  const rows = await store.getMany([...new Set(kept.flatMap((p) => [p.retired, p.by_id]))]);
  const contradictions: Contradiction[] = [];
  for (const p of kept) {
    const retired = rows.get(p.retired);
    const by = rows.get(p.by_id);
    if (!retired || !by) continue;
    contradictions.push({
      memory: toMemoryJson(retired),
      superseded_by: toMemoryJson(by),
      similarity: Number(p.weight),
      superseded_at: sqlIso(p.created_at),
    });
  }
  return { contradictions, count: contradictions.length, truncated };
}

/**
 * Restores a superseded memory, in one statement (atomic without holding a session): removes its
 * `superseded_by` edges (the triggers drop their backlinks), makes it active again and records
 * `supersession_undone` on it and on each memory that had superseded it.
 * $1 id, $2 now, $3 actor.
 */
const UNDO_SQL = `WITH pair AS (
  DELETE FROM memory_edges e USING memories r
   WHERE e.source_id = $1::uuid AND e.edge_type = '${SUPERSEDED_BY}' AND r.id = e.source_id AND r.status = 'deprecated'
  RETURNING e.target_id, e.weight, e.created_at
), restored AS (
  UPDATE memories SET status = 'active', deprecated_at = NULL, updated_at = $2::timestamptz
   WHERE id = $1::uuid AND EXISTS (SELECT 1 FROM pair)
  RETURNING id, deprecated_at
), events AS (
  INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
  SELECT memory_id, 'supersession_undone', $3, evidence, $2::timestamptz FROM (
    SELECT 1 AS ord, r.id AS memory_id,
           jsonb_build_object('restored', true, 'role', 'retired',
             'superseded_by', (SELECT jsonb_agg(p.target_id::text ORDER BY p.target_id) FROM pair p)) AS evidence
      FROM restored r
    UNION ALL
    SELECT 2, p.target_id,
           jsonb_build_object('role', 'superseding', 'restored_id', $1::text, 'similarity', p.weight,
             'superseded_at', p.created_at)
      FROM pair p
  ) e ORDER BY ord
)
SELECT target_id::text AS by_id, weight, created_at FROM pair ORDER BY target_id`;

export interface UndoResult {
  ok: true;
  memory: MemoryJson;
  /** The memories that had superseded it; they stay as they are. */
  superseded_by: { id: string; similarity: number; superseded_at: string }[];
}

export async function undoSupersession(store: MemoryStore, id: string, actor = 'api'): Promise<UndoResult> {
  const before = await store.get(id);
  if (!before) throw notFound(`no memory with id ${id}`);
  const pairs = await store.db.sql.query<{ by_id: string; weight: number; created_at: Date }>(UNDO_SQL, [
    id,
    new Date().toISOString(),
    actor,
  ]);
  if (pairs.length === 0) {
    throw conflict(
      before.status === 'active'
        ? `memory ${id} is active; only a superseded memory can be restored`
        : `memory ${id} is deprecated but not superseded (no superseded_by edge); use /lifecycle/promote to restore it`,
    );
  }
  // The row changed status without a new vector: the catalog re-reads its filter fields.
  await store.refreshCatalog([id]);
  const after = await store.get(id);
  return {
    ok: true,
    memory: toMemoryJson(after ?? before),
    superseded_by: pairs.map((p) => ({
      id: p.by_id,
      similarity: Number(p.weight),
      superseded_at: sqlIso(p.created_at),
    })),
  };
}
