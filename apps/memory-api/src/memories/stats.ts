import { Prisma } from '../generated/prisma/client.ts';
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

/** `AND namespace = $n` when a namespace is given; nothing when the question spans them all. */
const inNamespace = (ns: string | undefined) => (ns === undefined ? Prisma.empty : Prisma.sql`AND namespace = ${ns}`);

/** Counts of one namespace (or all), for /stats. */
export async function memoryStats(store: MemoryStore, ns: string | undefined) {
  const [row] = await store.prisma.$queryRaw<StatsRow[]>`
    SELECT count(*)::int AS total,
           count(*) FILTER (WHERE status = 'active')::int AS active,
           count(*) FILTER (WHERE status = 'deprecated')::int AS deprecated,
           count(*) FILTER (WHERE pinned AND status = 'active')::int AS pinned,
           count(*) FILTER (WHERE embedding IS NOT NULL)::int AS embedded,
           avg(importance) FILTER (WHERE status = 'active')::float8 AS avg_importance,
           coalesce(sum(access_count), 0)::int AS access_total,
           min(created_at) AS oldest, max(created_at) AS newest,
           count(DISTINCT namespace)::int AS namespaces
      FROM memories WHERE true ${inNamespace(ns)}`;
  const types = await store.prisma.$queryRaw<{ type: string; n: number }[]>`
    SELECT memory_type AS type, count(*)::int AS n FROM memories
     WHERE status = 'active' ${inNamespace(ns)} GROUP BY memory_type ORDER BY memory_type`;
  const [tags] = await store.prisma.$queryRaw<{ n: number }[]>`
    SELECT count(DISTINCT t)::int AS n FROM memories, unnest(tags) AS t WHERE status = 'active' ${inNamespace(ns)}`;
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
export async function healthCounts(store: Pick<MemoryStore, 'prisma'>) {
  const [row] = await store.prisma.$queryRaw<{ memories: number; namespaces: number }[]>`
    SELECT count(*) FILTER (WHERE status = 'active')::int AS memories,
           count(DISTINCT namespace)::int AS namespaces FROM memories`;
  return { memories: Number(row?.memories ?? 0), namespaces: Number(row?.namespaces ?? 0) };
}

/** Tags of live memories with their counts, most used first. */
export async function listTags(store: MemoryStore, ns: string | undefined) {
  const rows = await store.prisma.$queryRaw<{ tag: string; count: number }[]>`
    SELECT t AS tag, count(*)::int AS count FROM memories, unnest(tags) AS t
     WHERE status = 'active' ${inNamespace(ns)} GROUP BY t ORDER BY count(*) DESC, t`;
  return rows.map((r) => ({ tag: r.tag, count: Number(r.count) }));
}

/**
 * Renames a tag on every memory (of one namespace if given), in one statement; a memory that
 * already has the new tag just loses the old one, so tags stay unique. `to` undefined removes it.
 * Answers how many memories changed.
 */
export async function rewriteTag(store: MemoryStore, from: string, to: string | undefined, ns: string | undefined) {
  if (to === from) return 0;
  const rows = await store.prisma.$queryRaw<{ id: string }[]>`
    UPDATE memories SET updated_at = now(), tags = CASE
             WHEN ${to ?? null}::text IS NULL OR ${to ?? null}::text = ANY(tags) THEN array_remove(tags, ${from})
             ELSE array_replace(tags, ${from}, ${to ?? null}::text) END
     WHERE ${from} = ANY(tags) ${inNamespace(ns)} RETURNING id::text AS id`;
  await store.refreshCatalog({ id: { in: rows.map((r) => r.id) } });
  return rows.length;
}
