import type { SqlSession } from '@trove/data';
import { conflict, invalid, notFound } from '../domain-error.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import { DEFAULT_EDGE_TYPE, SUPERSEDED_BY } from './edge-types.ts';
import { type Endpoint, ensureNode, resolveEndpoint } from './endpoints.ts';

async function endpointOrThrow(store: MemoryStore, id: string, field: string): Promise<Endpoint> {
  const end = await resolveEndpoint(store.db.sql, id);
  if (!end) throw notFound(`${field}: no memory or graph node with id ${id}`);
  return end;
}

/** One timeline event per memory end of an edge change, so /timeline and /provenance show links. */
async function recordLinkEvents(
  tx: SqlSession,
  kind: 'linked' | 'link_updated' | 'unlinked',
  source: Endpoint,
  target: Endpoint,
  evidence: Record<string, unknown>,
  actor: string,
): Promise<void> {
  const rows: [string, Record<string, unknown>][] = [];
  if (source.memoryId) rows.push([source.memoryId, { ...evidence, direction: 'outgoing', other: target.key }]);
  if (target.memoryId) rows.push([target.memoryId, { ...evidence, direction: 'incoming', other: source.key }]);
  for (const [memoryId, data] of rows) {
    await tx.query(
      `INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at) VALUES ($1::uuid, $2, $3, $4::jsonb, now())`,
      [memoryId, kind, actor, JSON.stringify(data)],
    );
  }
}

export interface LinkRequest {
  source: string;
  target: string;
  edgeType?: string | undefined;
  weight?: number | undefined;
}

export interface LinkResult {
  ok: true;
  created: boolean;
  source_node: string;
  target_node: string;
  edge: { id: string; source: string; target: string; edge_type: string; weight: number; origin: 'graph' };
}

/**
 * Creates (or re-weights) an explicit edge. Either end may be a memory id, which gets a graph node
 * on demand, or a graph node id. Both ends must be live and in one namespace: an explicit edge
 * across namespaces would leak one tenant's ids into another's graph.
 */
export async function linkEndpoints(store: MemoryStore, request: LinkRequest, actor = 'api'): Promise<LinkResult> {
  const source = await endpointOrThrow(store, request.source, 'source');
  const target = await endpointOrThrow(store, request.target, 'target');
  if (source.key === target.key) throw invalid('source and target are the same node; self-loops are not allowed');
  for (const [field, end] of Object.entries({ source, target }))
    if (end.status === 'deprecated')
      throw conflict(`${field} memory ${end.key} is deprecated; restore it before linking it`);
  if (source.namespace !== target.namespace)
    throw invalid(
      `source is in namespace ${JSON.stringify(source.namespace)} and target in ${JSON.stringify(target.namespace)}; edges stay within one namespace`,
    );
  const edgeType = request.edgeType ?? DEFAULT_EDGE_TYPE;
  const weight = request.weight ?? 1;

  return store.db.sql.transaction(async (tx) => {
    const sourceNode = await ensureNode(tx, source);
    const targetNode = await ensureNode(tx, target);
    const ends = [sourceNode, targetNode, edgeType];
    const [before] = await tx.query<{ weight: number }>(
      'SELECT weight FROM graph_edges WHERE source_id = $1::uuid AND target_id = $2::uuid AND edge_type = $3',
      ends,
    );
    const [edge] = await tx.query<{ id: string }>(
      `INSERT INTO graph_edges (id, source_id, target_id, edge_type, weight, created_at)
       VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3, $4::float8, now())
       ON CONFLICT (source_id, target_id, edge_type) DO UPDATE SET weight = EXCLUDED.weight
       RETURNING id::text AS id`,
      [...ends, weight],
    );
    const id = (edge as { id: string }).id;
    if (!before)
      await recordLinkEvents(tx, 'linked', source, target, { edge_type: edgeType, weight, edge_id: id }, actor);
    else if (Number(before.weight) !== weight)
      await recordLinkEvents(
        tx,
        'link_updated',
        source,
        target,
        { edge_type: edgeType, weight, previous_weight: Number(before.weight), edge_id: id },
        actor,
      );
    return {
      ok: true as const,
      created: !before,
      source_node: sourceNode,
      target_node: targetNode,
      edge: { id, source: source.key, target: target.key, edge_type: edgeType, weight, origin: 'graph' as const },
    };
  });
}

export interface UnlinkResult {
  ok: true;
  deleted: number;
  source_node: string | null;
  target_node: string | null;
  edges: { id: string; edge_type: string; weight: number; origin: 'graph' | 'memory' }[];
}

/**
 * Removes the edges from source to target (of one type, or all types): explicit graph edges and,
 * when both ends are memories, memory edges such as auto-links. A `superseded_by` pair is left to
 * /contradictions/undo, which also restores the retired memory.
 */
export async function unlinkEndpoints(
  store: MemoryStore,
  request: { source: string; target: string; edgeType?: string | undefined },
  actor = 'api',
): Promise<UnlinkResult> {
  const source = await endpointOrThrow(store, request.source, 'source');
  const target = await endpointOrThrow(store, request.target, 'target');
  // $3: the one edge type to remove, or null for all.
  const typeFilter = 'AND ($3::text IS NULL OR edge_type = $3)';
  const removed = await store.db.sql.transaction(async (tx) => {
    const edges: UnlinkResult['edges'] = [];
    if (source.nodeId && target.nodeId) {
      const rows = await tx.query<{ id: string; edge_type: string; weight: number }>(
        `DELETE FROM graph_edges WHERE source_id = $1::uuid AND target_id = $2::uuid ${typeFilter}
         RETURNING id::text AS id, edge_type, weight`,
        [source.nodeId, target.nodeId, request.edgeType ?? null],
      );
      edges.push(...rows.map((r) => ({ ...r, weight: Number(r.weight), origin: 'graph' as const })));
    }
    if (source.memoryId && target.memoryId) {
      const rows = await tx.query<{ id: string; edge_type: string; weight: number }>(
        `DELETE FROM memory_edges WHERE source_id = $1::uuid AND target_id = $2::uuid AND edge_type <> $4 ${typeFilter}
         RETURNING id::text AS id, edge_type, weight`,
        [source.memoryId, target.memoryId, request.edgeType ?? null, SUPERSEDED_BY],
      );
      edges.push(...rows.map((r) => ({ ...r, weight: Number(r.weight), origin: 'memory' as const })));
    }
    if (edges.length > 0)
      await recordLinkEvents(
        tx,
        'unlinked',
        source,
        target,
        { edges: edges.map((e) => ({ id: e.id, edge_type: e.edge_type, origin: e.origin })) },
        actor,
      );
    return edges;
  });
  if (removed.length === 0)
    throw notFound(
      `no edge from ${source.key} to ${target.key}${request.edgeType ? ` of type ${request.edgeType}` : ''}`,
    );
  return {
    ok: true,
    deleted: removed.length,
    source_node: source.nodeId,
    target_node: target.nodeId,
    edges: removed,
  };
}
