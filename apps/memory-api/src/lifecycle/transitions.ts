import type { MemoryStore } from '../memories/memory-store.ts';
import { idsParam } from '../memories/sql-rows.ts';

/** Who changed a memory and why: recorded as the actor and evidence of the timeline event. */
export interface Cause {
  actor: string;
  evidence: Record<string, unknown>;
}

/**
 * active -> deprecated for the given ids, with a `deprecated` event each, in one statement (so
 * atomic on its own). Pinned memories and ones no longer active are skipped in SQL, whatever the
 * caller planned from an older read. Returns the ids actually deprecated.
 */
export async function deprecateMemories(store: MemoryStore, ids: string[], cause: Cause): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await store.db.sql.query<{ id: string }>(
    `WITH changed AS (
       UPDATE memories SET status = 'deprecated', deprecated_at = $2::timestamptz, updated_at = $2::timestamptz
        WHERE id IN ${idsParam('$1')} AND status = 'active' AND NOT pinned
       RETURNING id
     ), events AS (
       INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
       SELECT id, 'deprecated', $3, $4::jsonb, $2::timestamptz FROM changed
     )
     SELECT id::text AS id FROM changed`,
    [JSON.stringify(ids), new Date().toISOString(), cause.actor, JSON.stringify(cause.evidence)],
  );
  const changed = rows.map((r) => r.id);
  await refresh(store, changed);
  return changed;
}

/**
 * Deletes deprecated, unpinned memories for good. Their events, edges, room links, document
 * references and graph node go with them (foreign keys cascade), and so does their vector.
 */
export async function deleteDeprecated(store: MemoryStore, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await store.db.sql.query<{ id: string }>(
    `DELETE FROM memories WHERE id IN ${idsParam('$1')} AND status = 'deprecated' AND NOT pinned RETURNING id::text AS id`,
    [JSON.stringify(ids)],
  );
  const deleted = rows.map((r) => r.id);
  await store.removeIndexed(deleted);
  return deleted;
}

/**
 * deprecated -> active. A memory merged away by consolidation loses its `consolidated_into` edge
 * (the merge is undone); a `superseded_by` edge stays, as the record of the correction. Returns
 * false when the memory was not deprecated (any more).
 */
export async function promoteMemory(store: MemoryStore, id: string, cause: Cause): Promise<boolean> {
  const rows = await store.db.sql.query<{ id: string }>(
    `WITH changed AS (
       UPDATE memories SET status = 'active', deprecated_at = NULL, updated_at = $2::timestamptz
        WHERE id = $1::uuid AND status = 'deprecated'
       RETURNING id, deprecated_at
     ), unmerged AS (
       DELETE FROM memory_edges e USING changed c
        WHERE e.source_id = c.id AND e.edge_type = 'consolidated_into'
       RETURNING e.target_id
     ), events AS (
       INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
       SELECT c.id, 'promoted', $3,
              $4::jsonb || jsonb_build_object('unmerged_from', COALESCE((SELECT jsonb_agg(target_id::text) FROM unmerged), '[]'::jsonb)),
              $2::timestamptz
         FROM changed c
     )
     SELECT id::text AS id FROM changed`,
    [id, new Date().toISOString(), cause.actor, JSON.stringify(cause.evidence)],
  );
  await refresh(store, [id]);
  return rows.length > 0;
}

/** Rows changed by SQL: their status, tags and so on must reach the vector catalog's filters. */
export async function refresh(store: MemoryStore, ids: string[]): Promise<void> {
  const CHUNK = 5000;
  for (let i = 0; i < ids.length; i += CHUNK) await store.refreshCatalog(ids.slice(i, i + CHUNK));
}
