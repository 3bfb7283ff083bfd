import { dot } from '@trove/embeddings';
import { filterSql, matchesFilter } from '../memories/filters.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import { toMemoryJson } from '../memories/record.ts';
import { addParam, fromSqlRow, MEMORY_SELECT, sqlIso } from '../memories/sql-rows.ts';
import { termStatistics } from '../recall/bm25.ts';
import { questionVector } from '../recall/vector-query.ts';

export interface MemberFilter {
  author?: string | undefined;
  namespace?: string | undefined;
  /**
   * Time travel: the room as it was then. Memories created after it, deprecated or invalidated
   * by then, or linked into the room after it are left out.
   */
  at?: Date | undefined;
}

/** The conditions on the room's links (alias rm): the room, and the filter's author and `at`. */
function linkConditions(roomId: string, filter: MemberFilter, params: unknown[]): string[] {
  const parts = [`rm.room_id = ${addParam(params, roomId)}`];
  if (filter.author !== undefined) parts.push(`rm.author = ${addParam(params, filter.author)}`);
  if (filter.at) parts.push(`rm.joined_at <= ${addParam(params, filter.at.toISOString())}::timestamptz`);
  return parts;
}

/** `FROM ... WHERE ...` over the room's links (alias rm) and their memories (alias m); live ones unless `at`. */
function membersFrom(roomId: string, filter: MemberFilter, params: unknown[]): string {
  const parts = linkConditions(roomId, filter, params);
  parts.push(filterSql({ namespace: filter.namespace, at: filter.at }, params));
  return `FROM room_members rm JOIN memories m ON m.id = rm.memory_id WHERE ${parts.join(' AND ')}`;
}

const LINK_COLUMNS = 'rm.room_id, rm.author, rm.role, rm.joined_at AS room_joined_at';

function memberJson(r: Record<string, unknown>) {
  return Object.assign(toMemoryJson(fromSqlRow(r)), {
    room_id: r.room_id as string,
    author: (r.author as string | null) ?? null,
    role: r.role as string,
    joined_at: sqlIso(r.room_joined_at),
  });
}

export type RoomMemberJson = ReturnType<typeof memberJson>;

/** The room's memories in the order they joined (then by id): oldest first. */
export async function chronologicalMembers(
  store: MemoryStore,
  roomId: string,
  filter: MemberFilter,
  page: { limit: number; offset: number },
): Promise<RoomMemberJson[]> {
  const params: unknown[] = [];
  const from = membersFrom(roomId, filter, params);
  params.push(page.limit, page.offset);
  const rows = await store.db.sql.query(
    `SELECT ${MEMORY_SELECT.replace(/(^|,\s*)id::text/, '$1m.id::text')}, ${LINK_COLUMNS} ${from}
      ORDER BY rm.joined_at, rm.memory_id LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  return rows.map(memberJson);
}

/**
 * Semantic recall inside a room: cosine similarity of the query to each member's vector (from the
 * in-process catalog), exact over the room's members, best first. A room is a small slice of the
 * store, so scanning its members beats a filtered walk of the whole HNSW graph.
 */
export async function semanticMembers(
  store: MemoryStore,
  roomId: string,
  query: string,
  filter: MemberFilter,
  options: { limit: number; minScore: number },
): Promise<(RoomMemberJson & { score: number })[]> {
  // The link filters run in SQL as one aggregated row (10,000 rows one by one cost far more);
  // status, namespace and time travel are checked on the catalog, as the vector arm of /recall does.
  const params: unknown[] = [];
  const where = linkConditions(roomId, filter, params).join(' AND ');
  const [agg] = await store.db.sql.query<{ ids: string | null }>(
    `SELECT string_agg(rm.memory_id::text, ',') AS ids FROM room_members rm WHERE ${where}`,
    params,
  );
  const ids = agg?.ids ? agg.ids.split(',') : [];
  // The question's vector as memory recall makes it (its words weighed by rarity in the namespace).
  const q = await questionVector(store, query, await termStatistics(store).get(filter.namespace));
  if (dot(q, q) === 0) return [];
  const memoryFilter = { namespace: filter.namespace, at: filter.at };
  const best: { id: string; score: number }[] = [];
  const held = await store.index.vectors(ids);
  for (const id of ids) {
    const m = held.get(id);
    if (!m || !matchesFilter(m.entry, memoryFilter)) continue;
    const score = dot(q, m.vector);
    if (score < options.minScore || score <= 0) continue;
    best.push({ id, score });
  }
  best.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  const top = best.slice(0, options.limit);
  if (top.length === 0) return [];
  const rows = await store.db.sql.query(
    `SELECT ${MEMORY_SELECT.replace(/(^|,\s*)id::text/, '$1m.id::text')}, ${LINK_COLUMNS}
       FROM room_members rm JOIN memories m ON m.id = rm.memory_id
      WHERE rm.room_id = $1 AND m.id IN (SELECT (jsonb_array_elements_text($2::jsonb))::uuid)`,
    [roomId, JSON.stringify(top.map((t) => t.id))],
  );
  const byId = new Map(rows.map((r) => [r.id as string, r]));
  return top.flatMap((t) => {
    const row = byId.get(t.id);
    return row ? [Object.assign(memberJson(row), { score: Math.round(t.score * 1e6) / 1e6 })] : [];
  });
}
