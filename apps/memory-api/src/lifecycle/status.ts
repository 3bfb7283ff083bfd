import type { MemoryConfig } from '../config.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import { toMemoryJson } from '../memories/record.ts';
import { addParam, countRows, fromSqlRow, MEMORY_SELECT } from '../memories/sql-rows.ts';
import { AGING_ACTIONS, AGING_FACTOR, AGING_FLOOR } from './aging.ts';
import { IMPORTANCE_WEIGHTS } from './importance.ts';
import { DAY_MS, DEPRECATED_SINCE_SQL, daysBefore, namespaceSql } from './scope.ts';

/** `max_access_count` when a request gives none (spec section 8). */
export const DEFAULT_MAX_ACCESS_COUNT = 1;

/** The lifecycle configuration as `/lifecycle/status` shows it. */
export function lifecycleConfig(config: MemoryConfig) {
  return {
    warm_days: config.LIFECYCLE_WARM_DAYS,
    cold_days: config.LIFECYCLE_COLD_DAYS,
    deprecated_ttl_days: config.LIFECYCLE_DEPRECATED_TTL_DAYS,
    max_access_count: DEFAULT_MAX_ACCESS_COUNT,
    consolidate_threshold: config.CONSOLIDATE_THRESHOLD,
    max_per_call: config.MAINTENANCE_MAX_PER_CALL,
    aging: { actions: AGING_ACTIONS, factor: AGING_FACTOR, floor: AGING_FLOOR },
    importance_weights: IMPORTANCE_WEIGHTS,
  };
}

export async function lifecycleStatus(store: MemoryStore, config: MemoryConfig, namespace: string | undefined) {
  const params: unknown[] = [];
  const expiredBefore = addParam(params, daysBefore(new Date(), config.LIFECYCLE_DEPRECATED_TTL_DAYS).toISOString());
  const [c] = await store.db.sql.query<Record<string, number>>(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE m.status = 'active')::int AS active,
            count(*) FILTER (WHERE m.status = 'deprecated')::int AS deprecated,
            count(*) FILTER (WHERE m.pinned)::int AS pinned,
            count(*) FILTER (WHERE m.status = 'deprecated' AND NOT m.pinned
                               AND ${DEPRECATED_SINCE_SQL} < ${expiredBefore}::timestamptz)::int AS expired
       FROM memories m WHERE true${namespaceSql(namespace, params)}`,
    params,
  );
  return {
    namespace: namespace ?? null,
    total: Number(c?.total ?? 0),
    active: Number(c?.active ?? 0),
    deprecated: Number(c?.deprecated ?? 0),
    pinned: Number(c?.pinned ?? 0),
    expired: Number(c?.expired ?? 0),
    config: lifecycleConfig(config),
  };
}

/**
 * Deprecated memories, soonest to expire first, each with `expires_at` (deprecation + TTL) and
 * `days_left` (whole days until then, 0 once expired). Pinned ones never expire: both are null.
 */
export async function deprecatedListing(
  store: MemoryStore,
  q: { namespace?: string | undefined; limit: number; offset: number; ttlDays: number },
) {
  const params: unknown[] = [];
  const where = `m.status = 'deprecated'${namespaceSql(q.namespace, params)}`;
  const total = await countRows(store.db.sql, `memories m WHERE ${where}`, params);
  const rows = await store.db.sql.query(
    `SELECT ${MEMORY_SELECT}, ${DEPRECATED_SINCE_SQL} AS since FROM memories m WHERE ${where}
      ORDER BY m.pinned, ${DEPRECATED_SINCE_SQL}, m.id LIMIT ${addParam(params, q.limit)} OFFSET ${addParam(params, q.offset)}`,
    params,
  );
  const now = Date.now();
  return {
    namespace: q.namespace ?? null,
    ttl_days: q.ttlDays,
    total,
    memories: rows.map((r) => {
      const row = fromSqlRow(r);
      const since = new Date(r.since as string | Date).getTime();
      const expires = row.pinned ? null : since + q.ttlDays * DAY_MS;
      return Object.assign(toMemoryJson(row), {
        expires_at: expires === null ? null : new Date(expires).toISOString(),
        days_left: expires === null ? null : Math.max(0, Math.ceil((expires - now) / DAY_MS)),
      });
    }),
  };
}
