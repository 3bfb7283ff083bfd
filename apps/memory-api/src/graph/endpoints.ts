import type { SqlSession } from '@trove/data';

/**
 * One end of an explicit edge, as the caller named it: a memory id or a graph node id. `key` is
 * how graph answers name it: the memory id for a memory (or a node linked to one), else the node id.
 */
export interface Endpoint {
  key: string;
  /** The graph node, when one exists already (memories get theirs on demand). */
  nodeId: string | null;
  memoryId: string | null;
  namespace: string;
  /** The memory's status; null for a free-standing node. */
  status: string | null;
  label: string;
}

/** Graph node labels for memories: the start of the content, enough to recognise it. */
const LABEL_CHARS = 80;

interface EndpointRow {
  memory_id: string | null;
  node_id: string | null;
  namespace: string;
  status: string | null;
  label: string;
}

const toEndpoint = (r: EndpointRow): Endpoint => ({
  key: r.memory_id ?? (r.node_id as string),
  nodeId: r.node_id,
  memoryId: r.memory_id,
  namespace: r.namespace,
  status: r.status,
  label: r.label,
});

/**
 * Looks an id up as a memory first, then as a graph node (a node linked to a memory stands for
 * that memory, with the memory's current namespace and status). Null when it is neither.
 */
export async function resolveEndpoint(sql: SqlSession, id: string): Promise<Endpoint | null> {
  const [end] = await sql.query<EndpointRow>(
    `SELECT m.id::text AS memory_id, n.id::text AS node_id, m.namespace, m.status, left(m.content, ${LABEL_CHARS}) AS label
       FROM memories m LEFT JOIN graph_nodes n ON n.memory_id = m.id WHERE m.id = $1::uuid
     UNION ALL
     SELECT n.memory_id::text, n.id::text, coalesce(m.namespace, n.namespace), m.status, n.label
       FROM graph_nodes n LEFT JOIN memories m ON m.id = n.memory_id WHERE n.id = $1::uuid
     LIMIT 1`,
    [id],
  );
  return end ? toEndpoint(end) : null;
}

/**
 * The graph node of an endpoint, created for a memory that has none yet. The memory_id column is
 * unique, so two requests racing to create the same node end up with the same one.
 */
export async function ensureNode(sql: SqlSession, end: Endpoint): Promise<string> {
  if (end.nodeId) return end.nodeId;
  const [row] = await sql.query<{ id: string }>(
    `INSERT INTO graph_nodes (id, namespace, label, kind, memory_id, created_at)
     VALUES (gen_random_uuid(), $1, $2, 'memory', $3::uuid, now())
     ON CONFLICT (memory_id) DO UPDATE SET memory_id = EXCLUDED.memory_id
     RETURNING id::text AS id`,
    [end.namespace, end.label, end.memoryId],
  );
  return (row as { id: string }).id;
}
