import type { MemoryStore } from './memory-store.ts';

interface StatsRow {
  total: number;
  active: number;
  deprecated: number;
  pinned: number;
  embedded: number;
  avg_importance: number | null;
  access_total: number;
  oldest: Date | null;
  newest: Date | null;
  namespaces: number;
}

/** `$1` is the namespace, or null when the question spans them all. */
const IN_NAMESPACE = '($1::text IS NULL OR namespace = $1)';

/** Counts of one namespace (or all), for /stats. */
export async function memoryStats(store: MemoryStore, ns: string | undefined) {
  const q = <R>(text: string) => store.db.sql.query<R>(text, [ns ?? null]);
  const [row] = await q<StatsRow>(`
    SELECT count(*)::int AS total,
           count(*) FILTER (WHERE status = 'active')::int AS active,
           count(*) FILTER (WHERE status = 'deprecated')::int AS deprecated,
           count(*) FILTER (WHERE pinned AND status = 'active')::int AS pinned,
           count(*) FILTER (WHERE embedding IS NOT NULL)::int AS embedded,
           avg(importance) FILTER (WHERE status = 'active')::float8 AS avg_importance,
           coalesce(sum(access_count), 0)::int AS access_total,
           min(created_at) AS oldest, max(created_at) AS newest,
           count(DISTINCT namespace)::int AS namespaces
      FROM memories WHERE ${IN_NAMESPACE}`);
  const types = await q<{ type: string; n: number }>(`SELECT memory_type AS type, count(*)::int AS n FROM memories
     WHERE status = 'active' AND ${IN_NAMESPACE} GROUP BY memory_type ORDER BY memory_type`);
  const [tags] = await q<{ n: number }>(`SELECT count(DISTINCT t)::int AS n FROM memories, unnest(tags) AS t
     WHERE status = 'active' AND ${IN_NAMESPACE}`);
  const s = row as StatsRow;
  return {
    namespace: ns ?? null,
    count: Number(s.active),
    total: Number(s.total),
    active: Number(s.active),
    deprecated: Number(s.deprecated),
    pinned: Number(s.pinned),
    by_type: Object.fromEntries(types.map((t) => [t.type, Number(t.n)])),
    tags: Number(tags?.n ?? 0),
    namespaces: Number(s.namespaces),
    embedded: Number(s.embedded),
    embedding_model: store.embedder.model,
    avg_importance: s.avg_importance === null ? null : Math.round(Number(s.avg_importance) * 1e4) / 1e4,
    access_total: Number(s.access_total),
    oldest: s.oldest ? new Date(s.oldest).toISOString() : null,
    newest: s.newest ? new Date(s.newest).toISOString() : null,
  };
}

/** Live memories and namespaces in use, for a /health that may show them. */
export async function healthCounts(db: Pick<MemoryStore['db'], 'sql'>) {
  const [row] = await db.sql.query<{ memories: number; namespaces: number }>(
    `SELECT count(*) FILTER (WHERE status = 'active')::int AS memories,
           count(DISTINCT namespace)::int AS namespaces FROM memories`,
  );
  return { memories: Number(row?.memories ?? 0), namespaces: Number(row?.namespaces ?? 0) };
}

/** Tags of live memories with their counts, most used first. */
export async function listTags(store: MemoryStore, ns: string | undefined) {
  const rows = await store.db.sql.query<{ tag: string; count: number }>(
    `SELECT t AS tag, count(*)::int AS count FROM memories, unnest(tags) AS t
     WHERE status = 'active' AND ${IN_NAMESPACE} GROUP BY t ORDER BY count(*) DESC, t`,
    [ns ?? null],
  );
  return rows.map((r) => ({ tag: r.tag, count: Number(r.count) }));
}

/**
 * Renames a tag on every memory (of one namespace if given), in one statement; a memory that
 * already has the new tag just loses the old one, so tags stay unique. `to` undefined removes it.
 * Answers how many memories changed.
 */
export async function rewriteTag(store: MemoryStore, from: string, to: string | undefined, ns: string | undefined) {
  if (to === from) return 0;
  const rows = await store.db.sql.query<{ id: string }>(
    `UPDATE memories SET updated_at = now(), tags = CASE
             WHEN $3::text IS NULL OR $3::text = ANY(tags) THEN array_remove(tags, $2::text)
             ELSE array_replace(tags, $2::text, $3::text) END
     WHERE $2::text = ANY(tags) AND ${IN_NAMESPACE} RETURNING id::text AS id`,
    [ns ?? null, from, to ?? null],
  );
  await store.refreshCatalog(rows.map((r) => r.id));
  return rows.length;
}
