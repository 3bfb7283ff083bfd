import type { MemoryRow } from './record.ts';
import { sqlJson } from './sql-rows.ts';
import type { NewMemory } from './store-inputs.ts';

/**
 * What a new memory starts with beside its input. Written explicitly by the statement (not left to
 * the columns' defaults), so the row `storedRow` builds here is the row stored.
 */
const NEW_MEMORY = {
  importance: 0.5,
  pinned: false,
  status: 'active',
  accessCount: 0,
  helpfulCount: 0,
  unhelpfulCount: 0,
} as const;

/**
 * A new memory in one statement: the row, its `created` event, `similar_to` edges and, with a
 * contradiction, the retired memory's deprecation, its `superseded_by` edge and the events of
 * both. One statement is atomic on its own, so no session is held across round trips. Nothing is
 * written (and no row returned) when a live memory of the namespace has the same content: the
 * exact-duplicate check costs no extra round trip on the usual path. It answers only what the
 * database decides (the id, and metadata as jsonb orders it): formatting and parsing the whole row
 * cost a third of the statement, and `storedRow` knows the rest.
 * $1 id, $2 content, $3 tags (JSON), $4 namespace, $5 type, $6 metadata, $7 source, $8 source_type,
 * $9 author_type, $10 hash, $11 valid_from, $12 valid_until, $13 embedding (hex), $14 model, $15 now,
 * $16 actor, $17 created evidence, $18 importance, $19 pinned, $20 links (JSON [{id, weight}]), $21 retired id,
 * $22 similarity.
 */
export const REMEMBER_SQL = `WITH new_row AS (
  INSERT INTO memories (id, content, tags, namespace, memory_type, metadata, source, source_type, author_type,
    content_hash, valid_from, valid_until, embedding, embedding_model, created_at, updated_at,
    importance, pinned, status, access_count, helpful_count, unhelpful_count)
  SELECT $1::uuid, $2, ARRAY(SELECT jsonb_array_elements_text($3::jsonb)), $4, $5, $6::jsonb, $7, $8, $9, $10,
    $11::timestamptz, $12::timestamptz, decode($13, 'hex'), $14, $15::timestamptz, $15::timestamptz,
    $18::float8, $19::boolean, '${NEW_MEMORY.status}', ${NEW_MEMORY.accessCount},
    ${NEW_MEMORY.helpfulCount}, ${NEW_MEMORY.unhelpfulCount}
   WHERE NOT EXISTS (SELECT 1 FROM memories WHERE content_hash = $10 AND namespace = $4 AND status = 'active')
  RETURNING *
), retired AS (
  UPDATE memories SET status = 'deprecated', deprecated_at = $15::timestamptz, updated_at = $15::timestamptz
   WHERE $21::uuid IS NOT NULL AND id = $21::uuid AND status = 'active' AND EXISTS (SELECT 1 FROM new_row)
  RETURNING id
), edges AS (
  INSERT INTO memory_edges (id, source_id, target_id, edge_type, weight, created_at)
  SELECT gen_random_uuid(), n.id, (l->>'id')::uuid, 'similar_to', (l->>'weight')::float8, $15::timestamptz
    FROM new_row n, jsonb_array_elements($20::jsonb) l
  UNION ALL
  SELECT gen_random_uuid(), r.id, n.id, 'superseded_by', $22::float8, $15::timestamptz FROM retired r, new_row n
  ON CONFLICT DO NOTHING
), events AS (
  INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
  SELECT memory_id, kind, $16, evidence, $15::timestamptz FROM (
    SELECT 1 AS ord, n.id AS memory_id, 'created' AS kind, $17::jsonb AS evidence FROM new_row n
    UNION ALL
    SELECT 2, r.id, 'superseded', jsonb_build_object('by', $1::text, 'similarity', $22::float8) FROM retired r
    UNION ALL
    SELECT 3, $1::uuid, 'supersedes', jsonb_build_object('id', r.id::text, 'similarity', $22::float8) FROM retired r
  ) e ORDER BY ord
)
SELECT id::text AS id, metadata FROM new_row`;

/** The usual case (no neighbour close enough to link, nothing retired): the first 19 parameters. */
export const REMEMBER_PLAIN_SQL = `${REMEMBER_SQL.slice(0, REMEMBER_SQL.indexOf('), retired AS ('))}
), events AS (
  INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
  SELECT n.id, 'created', $16, $17::jsonb, $15::timestamptz FROM new_row n
)
SELECT id::text AS id, metadata FROM new_row`;

/** What one remember writes, for `rememberParams`. */
export interface RememberWrite {
  id: string;
  input: NewMemory;
  hash: string;
  /** The encoded embedding, as hex. */
  embedding: string;
  model: string;
  now: Date;
  /** Neighbours to link. */
  links: { id: string; weight: number }[];
  /** The live memory this one retires (detect_contradiction), with its similarity. */
  retired: { id: string; score: number } | undefined;
}

/**
 * The statement for one remember and its parameters. Planning the full statement costs more than
 * running it, and most writes need only the row and its event: with nothing to link or retire,
 * REMEMBER_PLAIN_SQL (`plain`) and its first 19 parameters.
 */
export function rememberParams(write: RememberWrite): { plain: boolean; params: unknown[] } {
  const { input, hash } = write;
  const params: unknown[] = [
    write.id,
    input.content,
    JSON.stringify(input.tags),
    input.namespace,
    input.memoryType,
    JSON.stringify(input.metadata),
    input.source ?? null,
    input.sourceType,
    input.authorType ?? null,
    hash,
    input.validFrom?.toISOString() ?? null,
    input.validUntil?.toISOString() ?? null,
    write.embedding,
    write.model,
    write.now.toISOString(),
    input.authorType ?? input.sourceType,
    JSON.stringify({ content_hash: hash, ...input.evidence }),
    input.importance ?? NEW_MEMORY.importance,
    input.pinned ?? NEW_MEMORY.pinned,
  ];
  const plain = write.links.length === 0 && !write.retired;
  if (!plain) params.push(JSON.stringify(write.links), write.retired?.id ?? null, write.retired?.score ?? null);
  return { plain, params };
}

/** The row a remember stored, from what it wrote and the metadata the statement answered. */
export function storedRow(write: RememberWrite, stored: Record<string, unknown>): MemoryRow {
  const { input } = write;
  return {
    id: write.id,
    content: input.content,
    tags: input.tags,
    namespace: input.namespace,
    memoryType: input.memoryType,
    metadata: sqlJson(stored.metadata),
    source: input.source ?? null,
    sourceType: input.sourceType,
    authorType: input.authorType ?? null,
    contentHash: write.hash,
    validFrom: input.validFrom ?? null,
    validUntil: input.validUntil ?? null,
    embeddingModel: write.model,
    createdAt: write.now,
    updatedAt: write.now,
    lastAccessedAt: null,
    deprecatedAt: null,
    ...NEW_MEMORY,
    importance: input.importance ?? NEW_MEMORY.importance,
    pinned: input.pinned ?? NEW_MEMORY.pinned,
  };
}
