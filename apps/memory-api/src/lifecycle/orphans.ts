import type { MemoryStore } from '../memories/memory-store.ts';
import { addParam, countRows, fromSqlRow, MEMORY_SELECT } from '../memories/sql-rows.ts';
import { daysBefore, LAST_USED_SQL, namespaceSql } from './scope.ts';
import type { Candidates } from './stale.ts';
import { deprecateMemories } from './transitions.ts';

/**
 * An orphan is a live, unpinned memory that nothing points at or from: no room membership, no
 * memory edge in either direction (auto-links, supersession, consolidation), no edge of the
 * explicit graph on its node, and no document reference. Document references are not named by
 * the spec; counting them keeps a memory that a document still cites out of the bin.
 */
const ORPHAN_SQL = `m.status = 'active' AND NOT m.pinned
  AND NOT EXISTS (SELECT 1 FROM room_members rm WHERE rm.memory_id = m.id)
  AND NOT EXISTS (SELECT 1 FROM memory_edges e WHERE e.source_id = m.id OR e.target_id = m.id)
  AND NOT EXISTS (SELECT 1 FROM memory_doc_refs d WHERE d.memory_id = m.id)
  AND NOT EXISTS (
    SELECT 1 FROM graph_nodes n JOIN graph_edges g ON g.source_id = n.id OR g.target_id = n.id
     WHERE n.memory_id = m.id)`;

export interface OrphanQuery {
  namespace?: string | undefined;
  /** Only orphans whose importance is at most this (1.0: all). */
  maxImportance?: number | undefined;
  /** Only orphans unused for at least this many days. */
  olderThanDays?: number | undefined;
  limit: number;
  offset?: number;
}

function orphanWhere(q: OrphanQuery, params: unknown[]): string {
  let where = ORPHAN_SQL + namespaceSql(q.namespace, params);
  if (q.maxImportance !== undefined) where += ` AND m.importance <= ${addParam(params, q.maxImportance)}`;
  if (q.olderThanDays !== undefined) {
    const cutoff = addParam(params, daysBefore(new Date(), q.olderThanDays).toISOString());
    where += ` AND ${LAST_USED_SQL} < ${cutoff}::timestamptz`;
  }
  return where;
}

/** Orphans, least recently used first, with the total that match. */
export async function listOrphans(store: MemoryStore, q: OrphanQuery) {
  const params: unknown[] = [];
  const where = orphanWhere(q, params);
  const total = await countRows(store.db.sql, `memories m WHERE ${where}`, params);
  const rows = await store.db.sql.query(
    `SELECT ${MEMORY_SELECT} FROM memories m WHERE ${where}
      ORDER BY ${LAST_USED_SQL}, m.id LIMIT ${addParam(params, q.limit)} OFFSET ${addParam(params, q.offset ?? 0)}`,
    params,
  );
  return { total, rows: rows.map(fromSqlRow) };
}

async function orphanIds(store: MemoryStore, q: OrphanQuery): Promise<Candidates> {
  const params: unknown[] = [];
  const where = orphanWhere(q, params);
  const rows = await store.db.sql.query<{ id: string }>(
    `SELECT m.id::text AS id FROM memories m WHERE ${where} ORDER BY ${LAST_USED_SQL}, m.id LIMIT ${addParam(params, q.limit + 1)}`,
    params,
  );
  return { ids: rows.slice(0, q.limit).map((r) => r.id), truncated: rows.length > q.limit };
}

/**
 * `/prune`: orphans unused for `ttlDays` are deprecated, not deleted. Deprecation is restorable
 * (`/lifecycle/promote`) and the lifecycle cycle deletes them for good once their TTL is over.
 */
export async function pruneOrphans(
  store: MemoryStore,
  o: { dryRun: boolean; namespace?: string | undefined; ttlDays: number; maxPerCall: number },
) {
  const found = await orphanIds(store, { namespace: o.namespace, olderThanDays: o.ttlDays, limit: o.maxPerCall });
  const pruned = o.dryRun
    ? found.ids
    : await deprecateMemories(store, found.ids, {
        actor: 'prune',
        evidence: { reason: 'orphan', ttl_days: o.ttlDays },
      });
  return {
    dry_run: o.dryRun,
    namespace: o.namespace ?? null,
    ttl_days: o.ttlDays,
    action: 'deprecate',
    pruned: pruned.length,
    ids: pruned,
    truncated: found.truncated,
  };
}
