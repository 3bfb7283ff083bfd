import { addParam } from './sql-rows.ts';

/**
 * One filter, two evaluations: as a predicate over the in-process catalog (the vector arm) and as
 * SQL (the full-text arm, list, counts). Both must agree, or namespace isolation leaks on one arm;
 * the tests check every arm in both directions.
 */
export interface MemoryFilter {
  namespace?: string | undefined;
  /** Every listed tag must be on the memory. */
  tags?: string[] | undefined;
  category?: string | undefined;
  entity?: string | undefined;
  after?: Date | undefined;
  before?: Date | undefined;
  /** Time travel: memories that existed then (created, not yet deprecated or invalidated), whatever their status now. */
  at?: Date | undefined;
}

export interface CatalogEntry {
  namespace: string;
  active: boolean;
  createdAt: number;
  deprecatedAt: number | null;
  validUntil: number | null;
  tags: string[];
  category: string | null;
  entity: string | null;
}

export function matchesFilter(entry: CatalogEntry, filter: MemoryFilter): boolean {
  if (filter.at) {
    const at = filter.at.getTime();
    if (entry.createdAt > at) return false;
    if (entry.deprecatedAt !== null && entry.deprecatedAt <= at) return false;
    if (entry.validUntil !== null && entry.validUntil <= at) return false;
  } else if (!entry.active) {
    return false;
  }
  if (filter.namespace !== undefined && entry.namespace !== filter.namespace) return false;
  if (filter.tags && !filter.tags.every((t) => entry.tags.includes(t))) return false;
  if (filter.category !== undefined && entry.category !== filter.category) return false;
  if (filter.entity !== undefined && entry.entity !== filter.entity) return false;
  if (filter.after && entry.createdAt < filter.after.getTime()) return false;
  if (filter.before && entry.createdAt > filter.before.getTime()) return false;
  return true;
}

/** SQL conditions over table alias `m`; parameters are appended to `params` ($n numbering continues). */
export function filterSql(filter: MemoryFilter, params: unknown[]): string {
  const add = (value: unknown) => addParam(params, value);
  const parts: string[] = [];
  if (filter.at) {
    const at = add(filter.at.toISOString());
    parts.push(
      `m.created_at <= ${at}::timestamptz`,
      `(m.deprecated_at IS NULL OR m.deprecated_at > ${at}::timestamptz)`,
      `(m.valid_until IS NULL OR m.valid_until > ${at}::timestamptz)`,
    );
  } else {
    parts.push(`m.status = 'active'`);
  }
  if (filter.namespace !== undefined) parts.push(`m.namespace = ${add(filter.namespace)}`);
  if (filter.tags && filter.tags.length > 0) {
    parts.push(`m.tags @> ARRAY(SELECT jsonb_array_elements_text(${add(JSON.stringify(filter.tags))}::jsonb))`);
  }
  if (filter.category !== undefined) parts.push(`m.metadata->>'category' = ${add(filter.category)}`);
  if (filter.entity !== undefined) parts.push(`m.metadata->>'entity' = ${add(filter.entity)}`);
  if (filter.after) parts.push(`m.created_at >= ${add(filter.after.toISOString())}::timestamptz`);
  if (filter.before) parts.push(`m.created_at <= ${add(filter.before.toISOString())}::timestamptz`);
  return parts.join(' AND ');
}
