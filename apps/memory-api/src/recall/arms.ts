import { dot, tokenize } from '@trove/embeddings';
import { type MemoryFilter, matchesFilter } from '../memories/filters.ts';
import type { MemoryStore } from '../memories/memory-store.ts';
import { RECALL_EF } from '../memories/vector-catalog.ts';
import { bm25 } from './bm25.ts';

/** One arm's ranking: ids best first, with the arm's own signal for `explain`. */
export interface ArmHit {
  id: string;
  /** The arm's raw signal: cosine similarity, full-text rank, or a blend. */
  signal: number;
  /** 0..1, comparable across queries: how strong a match the signal is on the arm's own scale. */
  strength: number;
}

/**
 * Cosine similarity as a strength: averaged word vectors are similar for almost any two texts
 * (0.3-0.6 between unrelated turns of LoCoMo), so what lies below `floor` counts for little (up to
 * 0.05, keeping the order) and what lies above rises to 1 at `full`. Tuned with bench:locomo on
 * its tuning conversations.
 */
export const VECTOR_STRENGTH = { floor: 0.3, full: 0.9 };
export function cosineStrength(cos: number): number {
  const { floor, full } = VECTOR_STRENGTH;
  if (cos <= 0) return 0;
  if (cos < floor) return (0.05 * cos) / floor;
  return Math.min(1, 0.05 + (0.95 * (cos - floor)) / (full - floor));
}

/** Query words as an OR of stemmed terms: a question shares only some words with its answer. */
export function orTsQuery(query: string): string {
  const words = tokenize(query)
    .flatMap((w) => w.split("'"))
    .filter((w) => w.length > 0);
  return [...new Set(words)].join(' | ');
}

/** Vector hits, with the hash of the text each searched vector was embedded from. */
export async function vectorArm(
  store: MemoryStore,
  query: Float32Array,
  n: number,
  filter: MemoryFilter,
): Promise<(ArmHit & { contentHash: string | undefined })[]> {
  const hits = await store.search(query, n, filter, RECALL_EF);
  return hits
    .filter((h) => h.score > 0)
    .map((h) => ({ id: h.id, signal: h.score, strength: cosineStrength(h.score), contentHash: h.contentHash }));
}

/** Full text: Okapi BM25 over Postgres's tsvector (see bm25.ts); the arm keeps the spec's name `fts5`. */
export const ftsArm = (store: MemoryStore, query: string, n: number, filter: MemoryFilter): Promise<ArmHit[]> =>
  bm25(store, query, n, filter);

/**
 * One ranking from both signals at once: cosine similarity plus full-text rank scaled to the best
 * text match, half and half. Unlike fusion it compares scores, not ranks.
 */
export async function hybridArm(
  store: MemoryStore,
  query: Float32Array,
  vector: ArmHit[],
  text: ArmHit[],
): Promise<ArmHit[]> {
  const topText = Math.max(0, ...text.map((h) => h.signal));
  const sim = new Map(vector.map((h) => [h.id, h.signal]));
  const textRank = new Map(text.map((h) => [h.id, h.signal]));
  const textStrength = new Map(text.map((h) => [h.id, h.strength]));
  const ids = new Set([...sim.keys(), ...textRank.keys()]);
  const textOnly = await store.vectorsOf([...textRank.keys()].filter((id) => !sim.has(id)));
  const hits: ArmHit[] = [];
  for (const id of ids) {
    let s = sim.get(id);
    if (s === undefined) {
      const v = textOnly.get(id);
      s = v ? dot(query, v) : 0;
    }
    const t = topText > 0 ? (textRank.get(id) ?? 0) / topText : 0;
    const strength = 0.5 * cosineStrength(s) + 0.5 * (textStrength.get(id) ?? 0);
    hits.push({ id, signal: 0.5 * Math.max(0, s) + 0.5 * t, strength });
  }
  return hits.sort((a, b) => b.signal - a.signal);
}

/**
 * Seeds (the best vector hits) and their neighbours over memory edges; a neighbour scores its
 * seed's similarity times the edge weight, a little below the seed itself.
 */
export async function graphArm(store: MemoryStore, seeds: ArmHit[], filter: MemoryFilter): Promise<ArmHit[]> {
  const top = seeds.slice(0, 5);
  if (top.length === 0) return [];
  const seedScore = new Map(top.map((h) => [h.id, h.signal]));
  const seedStrength = new Map(top.map((h) => [h.id, h.strength]));
  const ids = [...seedScore.keys()];
  const edges = await store.db.sql.query<{ sourceId: string; targetId: string; weight: number }>(
    `SELECT source_id::text AS "sourceId", target_id::text AS "targetId", weight
       FROM memory_edges WHERE source_id = ANY($1::uuid[]) OR target_id = ANY($1::uuid[])`,
    [ids],
  );
  const score = new Map(seedScore);
  const strength = new Map(seedStrength);
  const entries = await store.index.entries([...new Set(edges.flatMap((e) => [e.sourceId, e.targetId]))]);
  for (const e of edges) {
    for (const [from, to] of [
      [e.sourceId, e.targetId],
      [e.targetId, e.sourceId],
    ] as const) {
      const s = seedScore.get(from);
      if (s === undefined) continue;
      const entry = entries.get(to);
      if (!entry || !matchesFilter(entry, filter)) continue;
      const via = s * e.weight * 0.9;
      if (via > (score.get(to) ?? 0)) {
        score.set(to, via);
        strength.set(to, (seedStrength.get(from) ?? 0) * e.weight * 0.9);
      }
    }
  }
  return [...score]
    .map(([id, signal]) => ({ id, signal, strength: strength.get(id) ?? 0 }))
    .sort((a, b) => b.signal - a.signal);
}
