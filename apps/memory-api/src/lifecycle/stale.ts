import type { MemoryStore } from '../memories/memory-store.ts';
import { addParam } from '../memories/sql-rows.ts';
import { DEPRECATED_SINCE_SQL, daysBefore, LAST_USED_SQL, namespaceSql } from './scope.ts';

export interface StaleQuery {
  namespace?: string | undefined;
  /** Unused (neither created nor accessed) for at least this many days. */
  olderThanDays: number;
  /** Read at most this many times. */
  maxAccessCount: number;
  /** How many to return at most; one more is read to tell whether more remain. */
  limit: number;
  now: Date;
}

/** A pass over stale memories (aging, the lifecycle cycle): the rule, a dry-run switch and a cap. */
export interface StalePass extends Omit<StaleQuery, 'limit' | 'now'> {
  dryRun: boolean;
  maxPerCall: number;
}

export interface Candidates {
  ids: string[];
  /** More matched than `limit`. */
  truncated: boolean;
}

/**
 * Live, unpinned memories that nobody has used for a while: the targets of the lifecycle cycle
 * and of aging. Least recently used first, so a capped call handles the stalest ones.
 */
export async function staleMemories(store: MemoryStore, q: StaleQuery): Promise<Candidates> {
  const params: unknown[] = [];
  const cutoff = addParam(params, daysBefore(q.now, q.olderThanDays).toISOString());
  const maxAccess = addParam(params, q.maxAccessCount);
  const where = `m.status = 'active' AND NOT m.pinned AND ${LAST_USED_SQL} < ${cutoff}::timestamptz
    AND m.access_count <= ${maxAccess}${namespaceSql(q.namespace, params)}`;
  const rows = await store.db.sql.query<{ id: string }>(
    `SELECT m.id::text AS id FROM memories m WHERE ${where} ORDER BY ${LAST_USED_SQL}, m.id LIMIT ${addParam(params, q.limit + 1)}`,
    params,
  );
  return page(rows, q.limit);
}

/** Deprecated, unpinned memories whose time in the bin (`ttlDays` since deprecation) is over. */
export async function expiredMemories(
  store: MemoryStore,
  q: { namespace?: string | undefined; ttlDays: number; limit: number; now: Date },
): Promise<Candidates> {
  const params: unknown[] = [];
  const cutoff = addParam(params, daysBefore(q.now, q.ttlDays).toISOString());
  const rows = await store.db.sql.query<{ id: string }>(
    `SELECT m.id::text AS id FROM memories m
      WHERE m.status = 'deprecated' AND NOT m.pinned AND ${DEPRECATED_SINCE_SQL} < ${cutoff}::timestamptz${namespaceSql(q.namespace, params)}
      ORDER BY ${DEPRECATED_SINCE_SQL}, m.id LIMIT ${addParam(params, q.limit + 1)}`,
    params,
  );
  return page(rows, q.limit);
}

function page(rows: { id: string }[], limit: number): Candidates {
  return { ids: rows.slice(0, limit).map((r) => r.id), truncated: rows.length > limit };
}
