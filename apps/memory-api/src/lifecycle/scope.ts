import { addParam } from '../memories/sql-rows.ts';

export const DAY_MS = 86_400_000;

/** Longest age or TTL a request may name (100 years): anything longer is a typo. */
export const MAX_DAYS = 36_500;

/** Largest `max_access_count` accepted: far above any real count, low enough to catch garbage. */
export const MAX_ACCESS_BOUND = 1_000_000;

/** The moment `days` before `now`. */
export function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

/**
 * When a memory was last of use: its last access, or its creation if it was never read (or was
 * imported with an older access time). Every age rule here counts from this moment, so a memory
 * that recalls still return is not "old", however long ago it was written.
 */
export const LAST_USED_SQL = 'GREATEST(m.created_at, COALESCE(m.last_accessed_at, m.created_at))';

/** When a memory was deprecated (an imported row may lack the time; its last update stands in). */
export const DEPRECATED_SINCE_SQL = 'COALESCE(m.deprecated_at, m.updated_at)';

/** `AND m.namespace = $n` when a namespace is given, else nothing. */
export function namespaceSql(namespace: string | undefined, params: unknown[]): string {
  return namespace === undefined ? '' : ` AND m.namespace = ${addParam(params, namespace)}`;
}
