import type { MemoryStore } from '../memories/memory-store.ts';
import { countRows, sqlIso } from '../memories/sql-rows.ts';
import { type GraphEdgeJson, toEdgeJson } from './graph-view.ts';

export interface MemoryEdgeJson extends GraphEdgeJson {
  /** The status of the memory at the other end, or `node` for a free-standing graph node. */
  other_status: string;
}

export interface BacklinkJson {
  /** The memory that refers to this one. */
  id: string;
  edge_type: string;
  created_at: string;
  status: string;
}

interface EdgeRow extends Omit<MemoryEdgeJson, 'created_at'> {
  created_at: Date;
  direction: 'out' | 'in';
}

/**
 * Every edge of one memory, both ways, whatever the status at the other end (this is how a
 * superseded memory's `superseded_by` edge is seen): memory edges, explicit graph edges of the
 * memory's graph node, and the derived `referenced_by` backlinks.
 */
export async function memoryEdges(
  store: MemoryStore,
  id: string,
): Promise<{ outgoing: MemoryEdgeJson[]; incoming: MemoryEdgeJson[]; referenced_by: BacklinkJson[] }> {
  const rows = await store.db.sql.query<EdgeRow>(
    `SELECT e.id::text AS id, e.source_id::text AS source, e.target_id::text AS target, e.edge_type, e.weight,
            'memory' AS origin, e.created_at, m.status AS other_status,
            CASE WHEN e.source_id = $1::uuid THEN 'out' ELSE 'in' END AS direction
       FROM memory_edges e
       JOIN memories m ON m.id = CASE WHEN e.source_id = $1::uuid THEN e.target_id ELSE e.source_id END
      WHERE e.source_id = $1::uuid OR e.target_id = $1::uuid
     UNION ALL
     SELECT g.id::text, coalesce(sn.memory_id, sn.id)::text, coalesce(tn.memory_id, tn.id)::text, g.edge_type, g.weight,
            'graph', g.created_at, coalesce(om.status, 'node'),
            CASE WHEN sn.memory_id = $1::uuid THEN 'out' ELSE 'in' END
       FROM graph_edges g
       JOIN graph_nodes sn ON sn.id = g.source_id
       JOIN graph_nodes tn ON tn.id = g.target_id
       LEFT JOIN memories om ON om.id = CASE WHEN sn.memory_id = $1::uuid THEN tn.memory_id ELSE sn.memory_id END
      WHERE sn.memory_id = $1::uuid OR tn.memory_id = $1::uuid
     ORDER BY created_at, id`,
    [id],
  );
  const backlinks = await store.db.sql.query<{ id: string; edge_type: string; created_at: Date; status: string }>(
    `SELECT b.referrer_id::text AS id, b.edge_type, b.created_at, m.status
       FROM memory_backlinks b JOIN memories m ON m.id = b.referrer_id
      WHERE b.memory_id = $1::uuid
      ORDER BY b.created_at, b.referrer_id, b.edge_type`,
    [id],
  );
  const toJson = (r: EdgeRow): MemoryEdgeJson => Object.assign(toEdgeJson(r), { other_status: r.other_status });
  return {
    outgoing: rows.filter((r) => r.direction === 'out').map(toJson),
    incoming: rows.filter((r) => r.direction === 'in').map(toJson),
    referenced_by: backlinks.map((b) => ({ ...b, created_at: sqlIso(b.created_at) })),
  };
}

/**
 * The backlinks every edge justifies: one per (target, source, type) of a memory edge, or of an
 * explicit edge between two memory-linked graph nodes. The triggers keep the table to this rule.
 */
const MEMORY_GRAPH_EDGES = `graph_edges g JOIN graph_nodes sn ON sn.id = g.source_id JOIN graph_nodes tn ON tn.id = g.target_id
  WHERE sn.memory_id IS NOT NULL AND tn.memory_id IS NOT NULL`;
const JUSTIFIED = `SELECT target_id AS memory_id, source_id AS referrer_id, edge_type, created_at FROM memory_edges
  UNION ALL SELECT tn.memory_id, sn.memory_id, g.edge_type, g.created_at FROM ${MEMORY_GRAPH_EDGES}`;

export interface RebuildReport {
  ok: true;
  removed: number;
  added: number;
  backlinks: number;
  from_memory_edges: number;
  from_graph_edges: number;
  took_ms: number;
}

/**
 * Recomputes memory_backlinks from the edges, in one transaction: drops rows no edge justifies and
 * adds the missing ones (the result equals a rebuild from scratch; the counts say what was wrong).
 */
export async function rebuildBacklinks(store: MemoryStore): Promise<RebuildReport> {
  const started = performance.now();
  return store.db.sql.transaction(async (tx) => {
    const written = async (sql: string) =>
      (await tx.query<{ n: number }>(`WITH w AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM w`))[0]?.n ?? 0;
    const removed = await written(`DELETE FROM memory_backlinks b WHERE NOT EXISTS (
         SELECT 1 FROM (${JUSTIFIED}) j
          WHERE j.memory_id = b.memory_id AND j.referrer_id = b.referrer_id AND j.edge_type = b.edge_type)`);
    const added = await written(`INSERT INTO memory_backlinks (memory_id, referrer_id, edge_type, created_at)
       SELECT memory_id, referrer_id, edge_type, min(created_at) FROM (${JUSTIFIED}) j
        GROUP BY memory_id, referrer_id, edge_type
       ON CONFLICT DO NOTHING`);
    return {
      ok: true as const,
      removed,
      added,
      backlinks: await countRows(tx, 'memory_backlinks'),
      from_memory_edges: await countRows(tx, 'memory_edges'),
      from_graph_edges: await countRows(tx, MEMORY_GRAPH_EDGES),
      took_ms: Math.round(performance.now() - started),
    };
  });
}
