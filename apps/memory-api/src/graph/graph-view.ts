import { notFound } from '../domain-error.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import { idsParam, sqlIso } from '../memories/sql-rows.ts';

export const GRAPH_DEFAULT_LIMIT = 500;
export const GRAPH_MAX_LIMIT = 5000;
export const GRAPH_DEFAULT_DEPTH = 1;
export const GRAPH_MAX_DEPTH = 3;

export interface GraphEdgeJson {
  id: string;
  source: string;
  target: string;
  edge_type: string;
  weight: number;
  /** `memory`: memory_edges (auto-links, supersession); `graph`: an explicit edge from /graph/edge. */
  origin: 'memory' | 'graph';
  created_at: string;
}

export type GraphNodeJson =
  | {
      id: string;
      kind: 'memory';
      label: string;
      type: string;
      namespace: string;
      tags: string[];
      importance: number;
      pinned: boolean;
    }
  | { id: string; kind: string; label: string; namespace: string };

export interface GraphQuery {
  namespace?: string | undefined;
  /** A memory id (or graph node id): answer its neighbourhood instead of the whole graph. */
  nodeId?: string | undefined;
  depth: number;
  limit: number;
}

type EdgeRow = Omit<GraphEdgeJson, 'created_at'> & { created_at: Date | string };

/**
 * Memory edges and explicit graph edges as one list, named by memory id where a node stands for a
 * memory. Only edges whose both ends are live (active memories, or free-standing nodes) count, and
 * with a namespace both ends must be in it, so neither deprecated memories nor another tenant's
 * ids appear. With a frontier (a JSON array of keys) only edges touching it are read.
 * Strongest first, then newest, so a limit keeps the edges that matter most.
 *
 * The joins are written as fenced lookups (LATERAL ... OFFSET 0) so that the plan is always
 * "walk from the namespace's memories (or the frontier) along the edge indexes, then look each
 * other end up by primary key". Left to itself, a planner without fresh statistics (PGlite never
 * analyzes) crosses the namespace's memories with themselves and probes every pair: 6 s instead
 * of milliseconds at 1,000 memories.
 */
const liveMemory = (alias: string, idColumn: string) =>
  `CROSS JOIN LATERAL (SELECT status, namespace FROM memories m WHERE m.id = ${idColumn} OFFSET 0) ${alias}`;
const graphEnd = (alias: string, nodeColumn: string) =>
  `CROSS JOIN LATERAL (SELECT coalesce(n.memory_id, n.id) AS key, n.memory_id, coalesce(m.namespace, n.namespace) AS namespace,
     m.status FROM graph_nodes n LEFT JOIN memories m ON m.id = n.memory_id WHERE n.id = ${nodeColumn} OFFSET 0) ${alias}`;

function memoryEdgesFrom(namespace: boolean, frontier: string | null): string {
  if (frontier)
    // Outgoing edges of the frontier, then incoming ones whose source is outside it (those whose
    // source is inside were read as outgoing already), each along its own index.
    return `(SELECT f.id AS key FROM ${frontier} f(id) OFFSET 0) f
      CROSS JOIN LATERAL (
        SELECT * FROM memory_edges x WHERE x.source_id = f.key
        UNION ALL
        SELECT * FROM memory_edges x WHERE x.target_id = f.key AND x.source_id NOT IN ${frontier}
        OFFSET 0) e`;
  if (namespace)
    return `(SELECT id FROM memories WHERE namespace = $1 AND status = 'active' OFFSET 0) f
      CROSS JOIN LATERAL (SELECT * FROM memory_edges x WHERE x.source_id = f.id OFFSET 0) e`;
  return 'memory_edges e';
}

function edgesSql(namespace: boolean, frontier: boolean, limitParam: string): string {
  const ns = (column: string) => (namespace ? `AND ${column} = $1` : '');
  const f = frontier ? idsParam(namespace ? '$2' : '$1') : null;
  const frontierNodes = `(SELECT id FROM graph_nodes WHERE id IN ${f} OR memory_id IN ${f})`;
  // Walking from the namespace's live memories, the source end needs no second look.
  const sourceKnownLive = namespace && !f;
  return `SELECT * FROM (
  SELECT e.id::text AS id, e.source_id::text AS source, e.target_id::text AS target, e.edge_type, e.weight,
         'memory' AS origin, e.created_at
    FROM ${memoryEdgesFrom(namespace, f)}
    ${sourceKnownLive ? '' : liveMemory('s', 'e.source_id')}
    ${liveMemory('t', 'e.target_id')}
   WHERE t.status = 'active' ${ns('t.namespace')}
     ${sourceKnownLive ? '' : `AND s.status = 'active' ${ns('s.namespace')}`}
  UNION ALL
  SELECT g.id::text, sn.key::text, tn.key::text, g.edge_type, g.weight, 'graph', g.created_at
    FROM ${f ? `(SELECT * FROM graph_edges WHERE source_id IN ${frontierNodes} OR target_id IN ${frontierNodes} OFFSET 0)` : 'graph_edges'} g
    ${graphEnd('sn', 'g.source_id')}
    ${graphEnd('tn', 'g.target_id')}
   WHERE (sn.memory_id IS NULL OR sn.status = 'active') AND (tn.memory_id IS NULL OR tn.status = 'active')
     ${ns('sn.namespace')} ${ns('tn.namespace')}
) edges
ORDER BY weight DESC, created_at DESC, id
LIMIT ${limitParam}`;
}

async function readEdges(
  store: MemoryStore,
  namespace: string | undefined,
  frontier: string[] | null,
  limit: number,
): Promise<EdgeRow[]> {
  const params: unknown[] = [];
  if (namespace !== undefined) params.push(namespace);
  if (frontier) params.push(JSON.stringify(frontier));
  params.push(limit);
  const sql = edgesSql(namespace !== undefined, frontier !== null, `$${params.length}::int`);
  return store.db.sql.query<EdgeRow>(sql, params);
}

export const toEdgeJson = (r: EdgeRow): GraphEdgeJson => ({
  id: r.id,
  source: r.source,
  target: r.target,
  edge_type: r.edge_type,
  weight: Number(r.weight),
  origin: r.origin,
  created_at: sqlIso(r.created_at),
});

const LABEL_CHARS = 80;

/** The nodes behind a set of keys: live memories first, then free-standing graph nodes. */
async function readNodes(store: MemoryStore, keys: string[]): Promise<GraphNodeJson[]> {
  if (keys.length === 0) return [];
  const param = JSON.stringify(keys);
  // Both queries answer in the JSON's shape, so their rows are the nodes.
  const memories = await store.db.sql.query<GraphNodeJson>(
    `SELECT id::text AS id, 'memory' AS kind, left(content, ${LABEL_CHARS}) AS label, memory_type AS type, namespace,
            coalesce(tags, '{}') AS tags, importance::float8 AS importance, pinned
       FROM memories WHERE id IN ${idsParam('$1')} AND status = 'active'`,
    [param],
  );
  const free = await store.db.sql.query<GraphNodeJson>(
    `SELECT id::text AS id, kind, label, namespace FROM graph_nodes WHERE id IN ${idsParam('$1')} AND memory_id IS NULL`,
    [param],
  );
  const order = new Map(keys.map((k, i) => [k, i]));
  return [...memories, ...free].sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}

/** The key a neighbourhood starts from: a live memory, or a graph node (its memory when it has one). */
async function centreKey(store: MemoryStore, id: string, namespace: string | undefined): Promise<string> {
  const [row] = await store.db.sql.query<{ key: string; namespace: string; status: string | null }>(
    `SELECT id::text AS key, namespace, status FROM memories WHERE id = $1::uuid
     UNION ALL
     SELECT coalesce(n.memory_id, n.id)::text, coalesce(m.namespace, n.namespace), m.status
       FROM graph_nodes n LEFT JOIN memories m ON m.id = n.memory_id WHERE n.id = $1::uuid
     LIMIT 1`,
    [id],
  );
  // A memory of another namespace is reported exactly like a missing one: no tenant learns of another's ids.
  if (!row || (namespace !== undefined && row.namespace !== namespace))
    throw notFound(
      `no memory or graph node with id ${id}${namespace !== undefined ? ` in namespace ${namespace}` : ''}`,
    );
  if (row.status === 'deprecated') throw notFound(`memory ${id} is deprecated; the graph shows live memories only`);
  return row.key;
}

export interface GraphAnswer {
  namespace: string | null;
  node_id: string | null;
  depth: number | null;
  limit: number;
  nodes: GraphNodeJson[];
  edges: GraphEdgeJson[];
  truncated: boolean;
}

/**
 * The whole graph (of a namespace, or of all), or the neighbourhood of one node out to `depth`
 * hops: each hop reads the edges that touch the nodes reached by the previous one. At most
 * `limit` edges come back; `truncated` says the limit cut some off. Nodes are the ends of the
 * returned edges (and the centre), so the answer stays bounded by the limit.
 */
export async function readGraph(store: MemoryStore, query: GraphQuery): Promise<GraphAnswer> {
  const edges = new Map<string, EdgeRow>();
  let truncated = false;
  let centre: string | null = null;
  if (!query.nodeId) {
    const rows = await readEdges(store, query.namespace, null, query.limit + 1);
    truncated = rows.length > query.limit;
    for (const r of rows.slice(0, query.limit)) edges.set(`${r.origin}:${r.id}`, r);
  } else {
    centre = await centreKey(store, query.nodeId, query.namespace);
    const reached = new Set([centre]);
    let frontier = [centre];
    for (let hop = 0; hop < query.depth && frontier.length > 0 && !truncated; hop++) {
      // Edges already taken come back again (they touch the previous hop): reading limit + 1 sees
      // past all of them to the one edge beyond the limit that tells us to set `truncated`.
      const rows = await readEdges(store, query.namespace, frontier, query.limit + 1);
      const next: string[] = [];
      for (const r of rows) {
        const key = `${r.origin}:${r.id}`;
        if (edges.has(key)) continue;
        if (edges.size === query.limit) {
          truncated = true;
          break;
        }
        edges.set(key, r);
        for (const end of [r.source, r.target]) {
          if (!reached.has(end)) {
            reached.add(end);
            next.push(end);
          }
        }
      }
      frontier = next;
    }
  }
  const list = [...edges.values()].map(toEdgeJson);
  const keys = new Set<string>(centre ? [centre] : []);
  for (const e of list) keys.add(e.source).add(e.target);
  return {
    namespace: query.namespace ?? null,
    node_id: centre,
    depth: query.nodeId ? query.depth : null,
    limit: query.limit,
    nodes: await readNodes(store, [...keys]),
    edges: list,
    truncated,
  };
}
