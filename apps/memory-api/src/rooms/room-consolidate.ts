import { dot } from '@trove/embeddings';
import type { MemoryStore } from '../memories/memory-store.ts';
import { DUPLICATE_MIN_WORD_OVERLAP, wordOverlap } from '../memories/word-overlap.ts';

/** Members are compared within segments of this many, in join order: the cost stays linear in the room. */
export const SEGMENT_SIZE = 200;
/** The hard budget cap: at most this many memories are retired by one `apply` call. */
export const MAX_MERGES_PER_CALL = 50;

interface Candidate {
  id: string;
  namespace: string;
  content: string;
  pinned: boolean;
  importance: number;
  created_at: Date | string;
}

export interface MergeGroup {
  segment: number;
  keep: { id: string; content: string };
  remove: { id: string; similarity: number }[];
}

/** Which memory of a duplicate group survives: pinned first, then more important, then older, then by id. */
function keeperOrder(a: Candidate, b: Candidate): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  if (a.importance !== b.importance) return b.importance - a.importance;
  const ta = new Date(a.created_at).getTime();
  const tb = new Date(b.created_at).getTime();
  if (ta !== tb) return ta - tb;
  return a.id < b.id ? -1 : 1;
}

/**
 * Near-duplicates inside each segment: cosine similarity at or above `threshold` and, as on the
 * write path, at least 80% of words shared (so a changed fact is not merged into the old one), and
 * the same namespace.
 * Groups are joined transitively; a pinned memory is never removed.
 */
async function planSegment(
  store: MemoryStore,
  members: Candidate[],
  threshold: number,
  segment: number,
): Promise<MergeGroup[]> {
  const vectors = await store.vectorsOf(members.map((m) => m.id));
  const parent = members.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  const best = new Map<number, number>();
  for (const [i, mi] of members.entries()) {
    const vi = vectors.get(mi.id);
    if (!vi) continue;
    for (let j = i + 1; j < members.length; j++) {
      const mj = members[j] as Candidate;
      const vj = vectors.get(mj.id);
      // Never across namespaces: a room may gather tenants' memories, but merging them would mix tenants.
      if (!vj || mj.namespace !== mi.namespace) continue;
      const s = dot(vi, vj);
      if (s < threshold || wordOverlap(mi.content, mj.content) < DUPLICATE_MIN_WORD_OVERLAP) continue;
      parent[root(j)] = root(i);
      best.set(i, Math.max(best.get(i) ?? 0, s));
      best.set(j, Math.max(best.get(j) ?? 0, s));
    }
  }
  const groups = new Map<number, Candidate[]>();
  for (let i = 0; i < members.length; i++) {
    if (!best.has(i)) continue;
    const r = root(i);
    groups.set(r, [...(groups.get(r) ?? []), members[i] as Candidate]);
  }
  const out: MergeGroup[] = [];
  for (const group of groups.values()) {
    const sorted = [...group].sort(keeperOrder);
    const keep = sorted[0] as Candidate;
    const keepVector = vectors.get(keep.id) as Float32Array;
    const remove = sorted
      .slice(1)
      .filter((m) => !m.pinned)
      .map((m) => ({ id: m.id, similarity: round(dot(keepVector, vectors.get(m.id) as Float32Array)) }));
    if (remove.length > 0) out.push({ segment, keep: { id: keep.id, content: keep.content }, remove });
  }
  return out;
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

export async function planConsolidation(store: MemoryStore, roomId: string, threshold: number) {
  const members = await store.db.sql.query<Candidate>(
    `SELECT m.id::text AS id, m.namespace, m.content, m.pinned, m.importance, m.created_at
       FROM room_members rm JOIN memories m ON m.id = rm.memory_id
      WHERE rm.room_id = $1 AND m.status = 'active' ORDER BY rm.joined_at, m.created_at, m.id`,
    [roomId],
  );
  const groups: MergeGroup[] = [];
  for (let s = 0; s * SEGMENT_SIZE < members.length; s++) {
    groups.push(...(await planSegment(store, members.slice(s * SEGMENT_SIZE, (s + 1) * SEGMENT_SIZE), threshold, s)));
  }
  return { members: members.length, segments: Math.ceil(members.length / SEGMENT_SIZE), groups };
}

/**
 * Retires the planned duplicates, at most `budget` of them, in one statement: each removed memory
 * is deprecated (restorable) with a `deprecated` event naming the kept one, and the kept memory
 * gets a `consolidated` event. Returns the ids retired.
 */
export async function applyConsolidation(
  store: MemoryStore,
  roomId: string,
  groups: MergeGroup[],
  budget: number,
): Promise<string[]> {
  const work = groups.flatMap((g) =>
    g.remove.map((r) => ({ remove: r.id, keep: g.keep.id, similarity: r.similarity })),
  );
  const batch = work.slice(0, budget);
  if (batch.length === 0) return [];
  const rows = await store.db.sql.query<{ id: string }>(
    `WITH plan AS (
       SELECT (x->>'remove')::uuid AS rid, (x->>'keep')::uuid AS kid, (x->>'similarity')::float8 AS sim
         FROM jsonb_array_elements($1::jsonb) x),
     retired AS (
       UPDATE memories m SET status = 'deprecated', deprecated_at = now(), updated_at = now()
         FROM plan WHERE m.id = plan.rid AND m.status = 'active' AND NOT m.pinned
       RETURNING m.id, plan.kid, plan.sim),
     events AS (
       INSERT INTO memory_events (memory_id, kind, actor, evidence, created_at)
       SELECT id, 'deprecated', 'room_consolidate',
              jsonb_build_object('reason', 'room_consolidate', 'room_id', $2::text, 'kept', kid::text, 'similarity', sim), now()
         FROM retired
       UNION ALL
       SELECT kid, 'consolidated', 'room_consolidate',
              jsonb_build_object('room_id', $2::text, 'removed', id::text, 'similarity', sim), now()
         FROM retired)
     SELECT id::text AS id FROM retired`,
    [JSON.stringify(batch), roomId],
  );
  const ids = rows.map((r) => r.id);
  if (ids.length > 0) await store.refreshCatalog(ids);
  return ids;
}
