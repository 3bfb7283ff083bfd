import { filterSql, type MemoryFilter } from './filters.ts';
import type { MemoryStore } from './memory-store.ts';
import { toMemoryJson } from './record.ts';
import { countRows } from './sql-rows.ts';

/** Live memories (or those alive at `filter.at`) newest first, as the API shows them. */
export async function newestMemories(store: MemoryStore, filter: MemoryFilter, take: number, skip = 0) {
  const params: unknown[] = [];
  const where = filterSql(filter, params);
  params.push(take, skip);
  const ids = await store.db.sql.query<{ id: string }>(
    `SELECT m.id::text AS id FROM memories m WHERE ${where}
      ORDER BY m.created_at DESC, m.id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  const rows = await store.getMany(ids.map((r) => r.id));
  return ids.flatMap((r) => {
    const row = rows.get(r.id);
    return row ? [toMemoryJson(row)] : [];
  });
}

/** How many memories the filter selects (the envelope of /list). */
export async function countMemories(store: MemoryStore, filter: MemoryFilter): Promise<number> {
  const params: unknown[] = [];
  const where = filterSql(filter, params);
  return countRows(store.db.sql, `memories m WHERE ${where}`, params);
}

/**
 * Keyword search: every word must match (Postgres full text, websearch syntax), best text rank
 * first; each hit counts as an access.
 */
export async function keywordSearch(store: MemoryStore, query: string, filter: MemoryFilter, take: number) {
  const params: unknown[] = [query];
  const where = filterSql(filter, params);
  params.push(take);
  const hits = await store.db.sql.query<{ id: string; rank: number }>(
    `SELECT m.id::text AS id, ts_rank_cd(m.search_vector, q, 1)::float8 AS rank
       FROM memories m, websearch_to_tsquery('english', $1) q
      WHERE m.search_vector @@ q AND ${where}
      ORDER BY rank DESC, m.created_at DESC LIMIT $${params.length}`,
    params,
  );
  const rows = await store.getMany(hits.map((h) => h.id));
  const results = hits.flatMap((h) => {
    const row = rows.get(h.id);
    return row ? [Object.assign(toMemoryJson(row), { score: Math.round(Number(h.rank) * 1e6) / 1e6 })] : [];
  });
  await store.countAccess(results.map((r) => r.id));
  return results;
}
