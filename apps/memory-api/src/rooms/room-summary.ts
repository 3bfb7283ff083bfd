import { dot } from '@trove/embeddings';
import type { MemoryStore } from '../memories/memory-store.ts';
import type { RoomRow } from './room-store.ts';

/** Clustering compares each memory with every cluster so far: bounded to the most recent members. */
export const SUMMARY_MEMBER_CAP = 2000;
const PREVIEW_CHARS = 200;

interface Member {
  id: string;
  content: string;
  tags: string[];
  memory_type: string;
  author: string | null;
  joined_at: Date | string;
}

export interface Cluster {
  size: number;
  representative: { id: string; content: string };
  member_ids: string[];
  authors: string[];
  top_tags: string[];
}

const preview = (s: string) => (s.length > PREVIEW_CHARS ? `${s.slice(0, PREVIEW_CHARS - 1)}…` : s);

/** The `n` values most often among what `valuesOf` gives for each item (nulls not counted), commonest first. */
function topCounts<T>(items: T[], valuesOf: (item: T) => (string | null)[], n: number) {
  const counts = new Map<string, number>();
  for (const item of items) for (const v of valuesOf(item)) if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1))
    .slice(0, n);
}

/**
 * Leader clustering, deterministic: members in join order; each joins the most similar earlier
 * cluster leader at or above `threshold`, else leads a new cluster. Members without a vector
 * stand alone. Clusters come back largest first, ties by the leader's join order.
 */
export async function clusterMembers(store: MemoryStore, members: Member[], threshold: number): Promise<Cluster[]> {
  const vectors = await store.vectorsOf(members.map((m) => m.id));
  const leaders: { vector: Float32Array; cluster: Member[] }[] = [];
  const all: Member[][] = [];
  for (const m of members) {
    const v = vectors.get(m.id);
    let home: Member[] | undefined;
    if (v) {
      let best = threshold;
      for (const l of leaders) {
        const s = dot(v, l.vector);
        if (s >= best) {
          best = s;
          home = l.cluster;
        }
      }
    }
    if (!home) {
      home = [];
      all.push(home);
      if (v) leaders.push({ vector: v, cluster: home });
    }
    home.push(m);
  }
  return all
    .map((c, order) => ({ c, order }))
    .sort((a, b) => b.c.length - a.c.length || a.order - b.order)
    .map(({ c }) => {
      const leader = c[0] as Member;
      return {
        size: c.length,
        representative: { id: leader.id, content: preview(leader.content) },
        member_ids: c.map((m) => m.id),
        authors: topCounts(c, (m) => [m.author], 5).map((x) => x.value),
        top_tags: topCounts(c, (m) => m.tags ?? [], 5).map((x) => x.value),
      };
    });
}

export interface SummaryOptions {
  threshold: number;
  maxClusters: number;
  /** Only memories of these types (summary-document: `reference`). */
  types?: string[] | undefined;
}

/** Statistics and memory clusters of a room's live members; deprecated memories are left out. */
export async function summarizeRoom(store: MemoryStore, room: RoomRow, options: SummaryOptions) {
  const params: unknown[] = [room.id];
  let typeFilter = '';
  if (options.types) {
    params.push(JSON.stringify(options.types));
    typeFilter = `AND m.memory_type IN (SELECT jsonb_array_elements_text($${params.length}::jsonb))`;
  }
  const [{ total } = { total: 0 }] = await store.db.sql.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM room_members rm JOIN memories m ON m.id = rm.memory_id
      WHERE rm.room_id = $1 AND m.status = 'active' ${typeFilter}`,
    params,
  );
  params.push(SUMMARY_MEMBER_CAP);
  // The most recent members, then back into join order so clustering is chronological.
  const members = (
    await store.db.sql.query<Member>(
      `SELECT m.id::text AS id, m.content, m.tags, m.memory_type, rm.author, rm.joined_at
         FROM room_members rm JOIN memories m ON m.id = rm.memory_id
        WHERE rm.room_id = $1 AND m.status = 'active' ${typeFilter}
        ORDER BY rm.joined_at DESC, m.id DESC LIMIT $${params.length}`,
      params,
    )
  ).reverse();
  const clusters = await clusterMembers(store, members, options.threshold);
  const iso = (v: Date | string | undefined) => (v === undefined ? null : new Date(v).toISOString());
  return {
    room_id: room.id,
    title: room.title,
    description: room.description,
    namespace: room.namespace,
    stats: {
      memories: Number(total),
      clustered: members.length,
      truncated: Number(total) > members.length,
      by_type: Object.fromEntries(topCounts(members, (m) => [m.memory_type], 20).map((x) => [x.value, x.count])),
      authors: topCounts(members, (m) => [m.author], 20).map((x) => ({ author: x.value, count: x.count })),
      top_tags: topCounts(members, (m) => m.tags ?? [], 10).map((x) => ({ tag: x.value, count: x.count })),
      first_joined: iso(members[0]?.joined_at),
      last_joined: iso(members.at(-1)?.joined_at),
      cluster_count: clusters.length,
    },
    threshold: options.threshold,
    clusters: clusters.slice(0, options.maxClusters),
  };
}

/** The room's reference documents, by slug. */
export async function roomDocuments(store: MemoryStore, roomId: string) {
  const rows = await store.db.sql.query<Record<string, unknown>>(
    `SELECT d.id::text AS id, d.slug, d.namespace, d.title, length(d.content)::int AS chars, d.tags,
            rd.added_by, rd.added_at
       FROM room_documents rd JOIN documents d ON d.id = rd.document_id
      WHERE rd.room_id = $1 ORDER BY d.slug, d.namespace`,
    [roomId],
  );
  return rows.map((r) => ({
    ...r,
    chars: Number(r.chars),
    tags: (r.tags as string[] | null) ?? [],
    added_at: new Date(r.added_at as string).toISOString(),
  }));
}
