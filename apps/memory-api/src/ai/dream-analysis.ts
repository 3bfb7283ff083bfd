import type { MemoryStore } from '../memories/memory-store.ts';

export interface SimilarPair {
  /** The two ids in ascending order. */
  a: string;
  b: string;
  similarity: number;
}

/** Neighbours looked at per memory: duplicates and contradictions sit among the nearest few. */
const NEIGHBOURS = 8;

/**
 * Pairs of the given memories whose embeddings are at least `floor` alike, most alike first, from
 * the in-process vector index (each memory's nearest live neighbours in its namespace).
 */
export async function similarPairs(
  store: MemoryStore,
  rows: { id: string }[],
  namespace: string,
  floor: number,
): Promise<SimilarPair[]> {
  const wanted = new Set(rows.map((r) => r.id));
  const pairs = new Map<string, SimilarPair>();
  const vectors = await store.vectorsOf([...wanted]);
  for (const { id } of rows) {
    const vector = vectors.get(id);
    if (!vector) continue;
    for (const n of await store.search(vector, NEIGHBOURS + 1, { namespace })) {
      if (n.id === id || !wanted.has(n.id) || n.score < floor) continue;
      const [a, b] = id < n.id ? [id, n.id] : [n.id, id];
      const key = `${a} ${b}`;
      const known = pairs.get(key);
      if (!known || known.similarity < n.score) pairs.set(key, { a, b, similarity: n.score });
    }
  }
  return [...pairs.values()].sort((x, y) => y.similarity - x.similarity || x.a.localeCompare(y.a));
}

/** Connected groups of the given pairs (union-find), largest first, with the weakest link of each. */
export function duplicateClusters(pairs: SimilarPair[]): { ids: string[]; minSimilarity: number }[] {
  const parent = new Map<string, string>();
  const root = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r) as string;
    parent.set(x, r);
    return r;
  };
  for (const p of pairs) {
    for (const id of [p.a, p.b]) if (!parent.has(id)) parent.set(id, id);
    parent.set(root(p.a), root(p.b));
  }
  const groups = new Map<string, { ids: string[]; minSimilarity: number }>();
  for (const id of parent.keys()) {
    const r = root(id);
    const g = groups.get(r) ?? { ids: [], minSimilarity: 1 };
    g.ids.push(id);
    groups.set(r, g);
  }
  for (const p of pairs) {
    const g = groups.get(root(p.a)) as { minSimilarity: number };
    g.minSimilarity = Math.min(g.minSimilarity, p.similarity);
  }
  return [...groups.values()]
    .map((g) => ({ ...g, ids: g.ids.sort() }))
    .sort((x, y) => y.ids.length - x.ids.length || (x.ids[0] as string).localeCompare(y.ids[0] as string));
}

const NUMBER = /\d+(?:[.,]\d+)*/g;
const NEGATION = /\b(?:not|no|never|none|nobody|nothing|neither|nor|cannot|without)\b|n['’]t\b/i;

const numbersOf = (text: string) => new Set((text.match(NUMBER) ?? []).map((n) => n.replace(/,/g, '')));

/**
 * Why two similar memories may disagree: they carry different numbers ("12 minutes" / "20
 * minutes"), or one is negated and the other is not. Null when neither applies.
 */
export function contradictionReason(a: string, b: string): string | null {
  const x = numbersOf(a);
  const y = numbersOf(b);
  if (x.size > 0 && y.size > 0) {
    const onlyA = [...x].filter((n) => !y.has(n));
    const onlyB = [...y].filter((n) => !x.has(n));
    if (onlyA.length > 0 && onlyB.length > 0) return `different numbers: ${onlyA.join(', ')} vs ${onlyB.join(', ')}`;
  }
  if (NEGATION.test(a) !== NEGATION.test(b)) return 'one is negated';
  return null;
}
