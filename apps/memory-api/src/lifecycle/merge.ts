import type { MemoryStore } from '../memories/memory-store.ts';
import { catalogRow } from '../memories/sql-rows.ts';
import type { CatalogRow } from '../memories/vector-catalog.ts';

export interface MergeGroup {
  keeper: string;
  namespace: string;
  /** Memories to fold into the keeper, each with its cosine similarity to it (null when unknown). */
  members: { id: string; similarity: number | null }[];
}

/*
 * A merge group is one statement, so it is applied whole or not at all: a crash between groups
 * leaves earlier groups done and later ones untouched. Parameters: $1 keeper, $2 namespace,
 * $3 members (JSON [{id, similarity}]), $4 now, $5 actor, $6 reason, $7 hard delete.
 * Nothing happens unless the keeper is still active; pinned members are never removed.
 */
const HEAD = `WITH members AS (
  SELECT (e->>'id')::uuid AS id, (e->>'similarity')::float8 AS similarity FROM jsonb_array_elements($3::jsonb) e
), keeper AS (
  SELECT id, tags FROM memories WHERE id = $1::uuid AND status = 'active' AND namespace = $2
)`;

/** The keeper gains the removed members' tags and the highest importance among them. */
const KEEPER_GAINS = `added AS (
  SELECT COALESCE(array_agg(DISTINCT t ORDER BY t), '{}') AS tags
    FROM removed r CROSS JOIN LATERAL unnest(r.tags) t CROSS JOIN keeper k WHERE NOT (t = ANY(k.tags))
), merged AS (
  UPDATE memories k SET tags = k.tags || (SELECT tags FROM added),
         importance = GREATEST(k.importance, (SELECT max(importance) FROM removed)),
         updated_at = $4::timestamptz
   WHERE k.id = $1::uuid AND EXISTS (SELECT 1 FROM removed)
  RETURNING k.id, k.tags, k.namespace, k.status, k.created_at, k.deprecated_at, k.valid_until, k.metadata
)`;

/** The changed rows' filter fields, so the vector catalog is brought up to date without another query. */
const CHANGED_ROWS = `SELECT 'removed' AS role, id::text AS id, namespace, status, created_at, deprecated_at, valid_until, tags, metadata
  FROM removed
UNION ALL
SELECT 'keeper', id::text, namespace, status, created_at, deprecated_at, valid_until, tags, metadata FROM merged`;

const keeperEvent = (extra: string) => `SELECT 2 AS ord, $1::uuid AS memory_id, 'consolidated_from' AS kind,
      jsonb_build_object('ids', (SELECT jsonb_agg(id::text ORDER BY id) FROM removed), 'reason', $6::text,
        'added_tags', to_jsonb((SELECT tags FROM added)), 'hard_deleted', $7::boolean${extra}) AS evidence
     WHERE EXISTS (SELECT 1 FROM removed)`;

/** Members are deprecated, each with a `consolidated_into` edge to the keeper and a `consolidated` event. */
const DEPRECATE_SQL = `${HEAD}, removed AS (
  UPDATE memories m SET status = 'deprecated', deprecated_at = $4::timestamptz, updated_at = $4::timestamptz
    FROM keeper k, members x
   WHERE m.id = x.id AND m.id <> k.id AND m.status = 'active' AND NOT m.pinned AND m.namespace = $2
  RETURNING m.id, m.tags, m.importance, x.similarity, m.namespace, m.status, m.created_at, m.deprecated_at, m.valid_until, m.metadata
), ${KEEPER_GAINS}, edges AS (
  INSERT INTO memory_edges (id, source_id, target_id, edge_type, weight, created_at)
  SELECT gen_random_uuid(), r.id, $1::uuid, 'consolidated_into', COALESCE(r.similarity, 1), $4::timestamptz
    FROM removed r
  ON CONFLICT (source_id, target_id, edge_type) DO UPDATE SET weight = EXCLUDED.weight, created_at = EXCLUDED.created_at
), events AS (
  INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
  SELECT memory_id, kind, $5, evidence, $4::timestamptz FROM (
    SELECT 1 AS ord, r.id AS memory_id, 'consolidated' AS kind,
           jsonb_build_object('into', $1::text, 'similarity', r.similarity, 'reason', $6::text) AS evidence
      FROM removed r
    UNION ALL
    ${keeperEvent('')}
  ) e ORDER BY ord
)
${CHANGED_ROWS}`;

/**
 * Members are deleted for good (only `/consolidate/pair` asks for this). Their events and edges go
 * with them (cascade), so the keeper's `consolidated_from` event keeps the record, with the
 * deleted content hashes. A member already deprecated may be deleted too (purging a merged copy).
 */
const DELETE_SQL = `${HEAD}, removed AS (
  DELETE FROM memories m USING keeper k, members x
   WHERE m.id = x.id AND m.id <> k.id AND NOT m.pinned AND m.namespace = $2
  RETURNING m.id, m.tags, m.importance, m.content_hash, x.similarity, m.namespace, m.status, m.created_at, m.deprecated_at, m.valid_until, m.metadata
), ${KEEPER_GAINS}, events AS (
  INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
  SELECT memory_id, kind, $5, evidence, $4::timestamptz FROM (
    ${keeperEvent(", 'deleted_content_hashes', (SELECT jsonb_agg(content_hash ORDER BY id) FROM removed)")}
  ) e
)
${CHANGED_ROWS}`;

/** Applies one merge group; returns the ids actually removed (deprecated, or deleted with `hardDelete`). */
export async function mergeGroup(
  store: MemoryStore,
  group: MergeGroup,
  options: { actor: string; reason: string; hardDelete?: boolean },
): Promise<string[]> {
  if (group.members.length === 0) return [];
  const hard = options.hardDelete === true;
  const rows = await store.db.sql.query<Record<string, unknown>>(hard ? DELETE_SQL : DEPRECATE_SQL, [
    group.keeper,
    group.namespace,
    JSON.stringify(group.members),
    new Date().toISOString(),
    options.actor,
    options.reason,
    hard,
  ]);
  const removed: string[] = [];
  const touched: CatalogRow[] = [];
  for (const r of rows) {
    const row = catalogRow(r);
    if (r.role === 'removed') removed.push(row.id);
    if (!(r.role === 'removed' && hard)) touched.push(row);
  }
  if (hard) await store.removeIndexed(removed);
  await store.touchIndexed(touched);
  return removed;
}
