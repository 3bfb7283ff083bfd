import type { MemoryStore } from '../memories/memory-store.ts';
import { addParam } from '../memories/sql-rows.ts';
import { LAST_USED_SQL, namespaceSql } from './scope.ts';

/**
 * How `/importance` scores a live memory, each signal in 0..1 (feedback in -1..1):
 *
 *   importance = 0.30 base
 *              + 0.25 × access     ln(1 + access_count) / ln(21): 20 reads count in full
 *              + 0.20 × recency    0.5 ^ (days since last use / 30): halves every 30 days
 *              + 0.15 × links      (memory edges + graph edges + rooms + documents) / 5, at most 1
 *              + 0.20 × feedback   (helpful − unhelpful) / (helpful + unhelpful + 2)
 *              + 0.20 if pinned
 *
 * clamped to 0..1 and rounded to 0.01 (so a daily run does not rewrite every row for a drift in
 * the third decimal). A new memory with no signals scores 0.5, the create default. Pinned memories
 * never lose importance here: they keep the higher of their current and the computed value.
 */
export const IMPORTANCE_WEIGHTS = {
  base: 0.3,
  access: 0.25,
  recency: 0.2,
  links: 0.15,
  feedback: 0.2,
  pinned: 0.2,
  accessSaturation: 20,
  recencyHalfLifeDays: 30,
  linksSaturation: 5,
} as const;

export async function recomputeImportance(store: MemoryStore, namespace: string | undefined) {
  const w = IMPORTANCE_WEIGHTS;
  const params: unknown[] = [];
  const now = addParam(params, new Date().toISOString());
  const scope = namespaceSql(namespace, params);
  const [result] = await store.db.sql.query<{
    considered: number;
    updated: number;
    avg_before: number | null;
    avg_after: number | null;
  }>(
    `WITH signals AS (
       SELECT m.id, m.importance AS was, m.pinned,
              LEAST(1.0, ln(1 + m.access_count) / ln(${1 + w.accessSaturation})) AS access,
              power(0.5, GREATEST(0, EXTRACT(EPOCH FROM (${now}::timestamptz - ${LAST_USED_SQL}))) / 86400.0
                    / ${w.recencyHalfLifeDays}) AS recency,
              LEAST(1.0, (
                (SELECT count(*) FROM memory_edges e WHERE e.source_id = m.id OR e.target_id = m.id)
                + (SELECT count(*) FROM graph_nodes n JOIN graph_edges g ON g.source_id = n.id OR g.target_id = n.id
                    WHERE n.memory_id = m.id)
                + (SELECT count(*) FROM room_members r WHERE r.memory_id = m.id)
                + (SELECT count(*) FROM memory_doc_refs d WHERE d.memory_id = m.id)
              ) / ${w.linksSaturation}.0) AS links,
              (m.helpful_count - m.unhelpful_count)::float8 / (m.helpful_count + m.unhelpful_count + 2) AS feedback
         FROM memories m
        WHERE m.status = 'active'${scope}
     ), scored AS (
       SELECT id, was, pinned,
              round(LEAST(1, GREATEST(0, ${w.base} + ${w.access} * access + ${w.recency} * recency + ${w.links} * links
                    + ${w.feedback} * feedback + CASE WHEN pinned THEN ${w.pinned} ELSE 0 END))::numeric, 2)::float8 AS computed
         FROM signals
     ), target AS (
       SELECT id, was, CASE WHEN pinned THEN GREATEST(was, computed) ELSE computed END AS score FROM scored
     ), changed AS (
       UPDATE memories m SET importance = t.score, updated_at = ${now}::timestamptz
         FROM target t WHERE m.id = t.id AND t.score <> t.was
       RETURNING m.id, t.was, t.score
     ), events AS (
       INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
       SELECT id, 'importance_recomputed', 'importance', jsonb_build_object('from', was, 'to', score), ${now}::timestamptz
         FROM changed
     )
     SELECT (SELECT count(*) FROM target)::int AS considered,
            (SELECT count(*) FROM changed)::int AS updated,
            (SELECT avg(was) FROM target)::float8 AS avg_before,
            (SELECT avg(score) FROM target)::float8 AS avg_after`,
    params,
  );
  const round = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v * 1000) / 1000);
  return {
    namespace: namespace ?? null,
    considered: Number(result?.considered ?? 0),
    updated: Number(result?.updated ?? 0),
    average_before: round(result?.avg_before),
    average_after: round(result?.avg_after),
  };
}
